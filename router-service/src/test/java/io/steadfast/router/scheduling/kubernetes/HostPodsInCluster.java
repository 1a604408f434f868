package io.steadfast.router.scheduling.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Map;

/**
 * Creates in a Kubernetes API (the mock server in CRUD mode) the StatefulSets and pods that the router's hosts stand
 * for, labelled and owned as the Helm chart makes them. The mock server runs no controllers: what the StatefulSet
 * controller or the kubelet would do (recreate a deleted pod, set the Ready condition) a test does with this.
 */
final class HostPodsInCluster {

    static final String RELEASE = "rel";

    private final KubernetesClient client;

    HostPodsInCluster(KubernetesClient client) {
        this.client = client;
    }

    StatefulSet statefulSet(String name, int replicas) {
        return client.apps().statefulSets().resource(new StatefulSetBuilder().withNewMetadata().withName(name)
                .endMetadata().withNewSpec().withReplicas(replicas).endSpec().build()).create();
    }

    /** A pod of {@code component} owned by {@code owner}, labelled for {@code release}; not ready yet. */
    Pod pod(String name, String component, StatefulSet owner, String release) {
        return client.pods().resource(new PodBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of(HostPods.NAME_LABEL, HostPods.NAME, HostPods.INSTANCE_LABEL, release,
                        HostPods.COMPONENT_LABEL, component))
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("StatefulSet")
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).withController(true)
                .endOwnerReference().endMetadata().withNewSpec().addNewContainer().withName("host")
                .withImage("steadfast/pe-host").endContainer().endSpec().build()).create();
    }

    Pod pod(String name, String component, StatefulSet owner) {
        return pod(name, component, owner, RELEASE);
    }

    /** The pod with its Ready condition set, as the kubelet sets it from the readiness probe. */
    Pod readiness(Pod pod, boolean ready) {
        Pod current = client.pods().withName(pod.getMetadata().getName()).get();
        current.setStatus(new PodStatusBuilder().withPhase("Running").addToConditions(new PodConditionBuilder()
                .withType("Ready").withStatus(ready ? "True" : "False").withReason(ready ? null : "ContainersNotReady")
                .withMessage(ready ? null : "containers with unready status: [host]")
                .withLastTransitionTime(Instant.now().toString()).build()).build());
        return client.pods().resource(current).updateStatus();
    }

    /** The pod under {@code name} now, or null. */
    Pod current(String name) {
        return client.pods().withName(name).get();
    }

    /** What the StatefulSet controller does after a pod of it is deleted: a new pod, same name, new uid. */
    Pod recreate(Pod deleted, StatefulSet owner) {
        String component = deleted.getMetadata().getLabels().get(HostPods.COMPONENT_LABEL);
        return pod(deleted.getMetadata().getName(), component, owner);
    }

    int replicas(String statefulSet) {
        return client.apps().statefulSets().withName(statefulSet).get().getSpec().getReplicas();
    }
}
