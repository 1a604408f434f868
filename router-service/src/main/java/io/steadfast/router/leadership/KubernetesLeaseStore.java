package io.steadfast.router.leadership;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

/**
 * The router lease as a {@code coordination.k8s.io/v1} Lease: {@code holderIdentity} the holding router process,
 * {@code renewTime} its last renewal (for people: no router compares it with its clock), the holder's URL and the
 * epoch in the annotations {@value #HOLDER_URL} and {@value #EPOCH}. A write names the resource version read, so the API
 * server refuses it (409) if another router wrote the Lease since: a compare-and-set. The router's Role needs
 * {@code get create update} on leases, nothing more.
 */
public final class KubernetesLeaseStore implements LeaseStore {

    /** The annotation that carries the holder's URL. */
    public static final String HOLDER_URL = "steadfast.io/holder-url";
    /** The annotation that carries the leadership epoch (a long: {@code leaseTransitions} is too narrow). */
    public static final String EPOCH = "steadfast.io/epoch";

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final int durationSeconds;

    public KubernetesLeaseStore(KubernetesClient client, String namespace, String name, int durationSeconds) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.durationSeconds = durationSeconds;
    }

    @Override
    public Optional<StoredLease> read() {
        Lease lease = client.leases().inNamespace(namespace).withName(name).get();
        if (lease == null || lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null) {
            return Optional.empty();
        }
        if (!isSteadfasts(lease)) {
            return Optional.empty(); // not written by a router: taken over as if absent
        }
        Map<String, String> annotations = lease.getMetadata().getAnnotations();
        ZonedDateTime renewed = lease.getSpec().getRenewTime();
        return Optional.of(new StoredLease(new LeaseRecord(lease.getSpec().getHolderIdentity(),
                URI.create(annotations.get(HOLDER_URL)), Long.parseLong(annotations.get(EPOCH)),
                renewed == null ? Instant.EPOCH : renewed.toInstant()), lease.getMetadata().getResourceVersion()));
    }

    @Override
    public boolean replace(Optional<StoredLease> expected, LeaseRecord next) {
        ZonedDateTime now = ZonedDateTime.ofInstant(next.renewedAt(), ZoneOffset.UTC);
        LeaseBuilder lease = new LeaseBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .addToAnnotations(HOLDER_URL, next.holderUrl().toString())
                .addToAnnotations(EPOCH, Long.toString(next.epoch()))
                .addToLabels("app.kubernetes.io/name", "steadfast")
                .addToLabels("app.kubernetes.io/component", "router")
                .endMetadata()
                .withNewSpec().withHolderIdentity(next.holder()).withLeaseDurationSeconds(durationSeconds)
                .withRenewTime(now)
                .endSpec();
        try {
            if (expected.isEmpty()) {
                Lease current = client.leases().inNamespace(namespace).withName(name).get();
                if (current == null) {
                    client.leases().inNamespace(namespace).resource(lease.build()).create();
                    return true;
                }
                if (isSteadfasts(current)) {
                    return false; // a router wrote it since it was read
                }
                // a Lease no router wrote: take it over at its version
                lease.editMetadata().withResourceVersion(current.getMetadata().getResourceVersion()).endMetadata();
            } else {
                lease.editMetadata().withResourceVersion(expected.get().version()).endMetadata();
            }
            client.leases().inNamespace(namespace).resource(lease.build()).update();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return false; // another router wrote it first
            }
            throw e;
        }
    }

    private static boolean isSteadfasts(Lease lease) {
        Map<String, String> annotations = lease.getMetadata().getAnnotations();
        return lease.getSpec() != null && lease.getSpec().getHolderIdentity() != null && annotations != null
                && annotations.containsKey(HOLDER_URL) && annotations.get(EPOCH) != null
                && annotations.get(EPOCH).matches("\\d{1,18}");
    }

    @Override
    public String describe() {
        return "Lease " + namespace + "/" + name;
    }
}
