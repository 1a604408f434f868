package io.steadfast.router.scheduling.kubernetes;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.steadfast.runtime.plan.HostKind;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Which pods are the router's hosts, and what their state says. A pod is the router's only if it carries the labels
 * {@code app.kubernetes.io/name: steadfast}, {@code app.kubernetes.io/instance: <release>} and
 * {@code app.kubernetes.io/component: pe-host|voter}, and an owner reference names the configured StatefulSet of that
 * component, by kind, name and the uid read from the API: a pod of another install, or one a person labelled by
 * hand, is never acted on. Thread-safe.
 */
final class HostPods {

    static final String NAME_LABEL = "app.kubernetes.io/name";
    static final String INSTANCE_LABEL = "app.kubernetes.io/instance";
    static final String COMPONENT_LABEL = "app.kubernetes.io/component";
    static final String NAME = "steadfast";

    private final KubernetesClient client;
    private final KubernetesAccess access;
    private final String release;
    private final Map<HostKind, String> statefulSets;
    /** The uid of each StatefulSet, as last read. */
    private final Map<String, String> statefulSetUids = new ConcurrentHashMap<>();

    HostPods(KubernetesClient client, KubernetesAccess access, String release, String peHostStatefulSet,
             String voterStatefulSet) {
        this.client = client;
        this.access = access;
        this.release = release;
        this.statefulSets = Map.of(HostKind.PE, peHostStatefulSet, HostKind.VOTER, voterStatefulSet);
    }

    /** The labels every pod of the router's hosts carries: the watch's selector. */
    Map<String, String> selector() {
        return new TreeMap<>(Map.of(NAME_LABEL, NAME, INSTANCE_LABEL, release)); // sorted: one query string
    }

    String statefulSetOf(HostKind kind) {
        return statefulSets.get(kind);
    }

    /** The kind of host a pod runs, by its labels; empty if it is not one of the router's host pods by label. */
    Optional<HostKind> kindOf(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        if (labels == null || !NAME.equals(labels.get(NAME_LABEL)) || !release.equals(labels.get(INSTANCE_LABEL))) {
            return Optional.empty();
        }
        String component = labels.get(COMPONENT_LABEL);
        if ("pe-host".equals(component)) {
            return Optional.of(HostKind.PE);
        }
        return "voter".equals(component) ? Optional.of(HostKind.VOTER) : Optional.empty();
    }

    /**
     * Whether the pod is the router's: its labels, and an owner reference to its component's StatefulSet with the uid
     * the API gives that StatefulSet. Reads the StatefulSet when it has not yet, or when the pod names another uid
     * (the StatefulSet was recreated).
     */
    boolean owns(Pod pod) {
        Optional<HostKind> kind = kindOf(pod);
        if (kind.isEmpty()) {
            return false;
        }
        String statefulSet = statefulSets.get(kind.get());
        List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
        OwnerReference owner = owners == null ? null : owners.stream()
                .filter(ref -> "StatefulSet".equals(ref.getKind()) && statefulSet.equals(ref.getName()))
                .findFirst().orElse(null);
        if (owner == null || owner.getUid() == null) {
            return false;
        }
        String known = statefulSetUids.get(statefulSet);
        if (!owner.getUid().equals(known)) {
            known = readUid(statefulSet);
        }
        return owner.getUid().equals(known);
    }

    private @Nullable String readUid(String statefulSet) {
        StatefulSet read = access.call("get", "apps/statefulsets", () -> client.apps().statefulSets()
                .inNamespace(access.namespace()).withName(statefulSet).get());
        if (read == null) {
            statefulSetUids.remove(statefulSet);
            return null;
        }
        statefulSetUids.put(statefulSet, read.getMetadata().getUid());
        return read.getMetadata().getUid();
    }

    static String uid(Pod pod) {
        return Objects.requireNonNull(pod.getMetadata().getUid(), "pod uid");
    }

    static String name(Pod pod) {
        return pod.getMetadata().getName();
    }

    /** Whether the pod's Ready condition is True. */
    static boolean ready(Pod pod) {
        return readyCondition(pod).map(condition -> "True".equals(condition.getStatus())).orElse(false);
    }

    static Optional<PodCondition> readyCondition(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst();
    }

    static boolean terminating(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }

    static boolean evicted(Pod pod) {
        return pod.getStatus() != null && "Evicted".equals(pod.getStatus().getReason());
    }
}
