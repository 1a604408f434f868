package io.steadfast.router.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The router lease as a Kubernetes Lease, against the fabric8 mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class KubernetesLeaseStoreTest {

    private static final String NAMESPACE = "steadfast";

    KubernetesClient client;

    private KubernetesLeaseStore store() {
        return new KubernetesLeaseStore(client, NAMESPACE, "steadfast-router", 4);
    }

    private static LeaseRecord record(String holder, long epoch) {
        return new LeaseRecord(holder, URI.create("http://" + holder + ":8080"), epoch, Instant.now());
    }

    @Test
    void createsTheLeaseOnceAndReadsItBack() {
        assertThat(store().read()).isEmpty();

        assertThat(store().replace(Optional.empty(), record("a", 1))).isTrue();
        assertThat(store().replace(Optional.empty(), record("b", 1))).as("it exists now").isFalse();

        StoredLease read = store().read().orElseThrow();
        assertThat(read.record().holder()).isEqualTo("a");
        assertThat(read.record().holderUrl()).isEqualTo(URI.create("http://a:8080"));
        assertThat(read.record().epoch()).isEqualTo(1);
        Lease lease = client.leases().inNamespace(NAMESPACE).withName("steadfast-router").get();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("a");
        assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(4);
    }

    @Test
    void aWriteOnAVersionSomeoneElseWroteSinceIsRefused() {
        store().replace(Optional.empty(), record("a", 1));
        StoredLease seenByA = store().read().orElseThrow();
        StoredLease seenByB = store().read().orElseThrow();

        assertThat(store().replace(Optional.of(seenByA), seenByA.record().renewed(Instant.now()))).isTrue();
        assertThat(store().replace(Optional.of(seenByB), record("b", 2))).as("a renewed in between").isFalse();
        assertThat(store().read().orElseThrow().record().holder()).isEqualTo("a");
    }

    @Test
    void twoRoutersElectOneLeaderThroughTheLease() {
        AtomicLong nanos = new AtomicLong();
        List<String> lost = new ArrayList<>();
        LeaderElectionProperties settings = new LeaderElectionProperties("kubernetes", "steadfast-router",
                Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500), null, null);
        LeaderElection a = new LeaderElection(store(), URI.create("http://10.0.0.1:8080"), settings, nanos::get,
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), lost::add);
        LeaderElection b = new LeaderElection(store(), URI.create("http://10.0.0.2:8080"), settings, nanos::get,
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), lost::add);

        a.lookAtLease();
        b.lookAtLease();
        assertThat(a.isLeading()).isTrue();
        assertThat(b.isLeading()).isFalse();
        assertThat(b.leaderUrl()).contains(URI.create("http://10.0.0.1:8080"));

        nanos.addAndGet(Duration.ofSeconds(4).toNanos()); // a died: nobody renews
        a.checkRenewDeadline();
        b.lookAtLease();

        assertThat(b.isLeading()).isTrue();
        assertThat(b.epoch()).isEqualTo(2);
        assertThat(lost).hasSize(1);
        assertThat(client.leases().inNamespace(NAMESPACE).withName("steadfast-router").get().getMetadata()
                .getAnnotations()).containsEntry(KubernetesLeaseStore.EPOCH, "2")
                .containsEntry(KubernetesLeaseStore.HOLDER_URL, "http://10.0.0.2:8080");
    }
}
