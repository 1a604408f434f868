package io.steadfast.router.scheduling.kubernetes;

import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.autoscaling.v1.ScaleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a StatefulSet's replicas at least at a target, through its {@code scale} subresource. It never scales down:
 * the router cannot tell which pod a smaller StatefulSet would drop (the highest ordinal, whatever it runs), and an
 * operator who scaled up by hand (more standbys before a risky change) or a rollout in progress would be undone; a
 * target lowered in the settings is applied by whoever changes it (helm upgrade sets the replicas).
 */
final class StatefulSetReplicas {

    private static final Logger LOG = LoggerFactory.getLogger(StatefulSetReplicas.class);

    private final KubernetesClient client;
    private final KubernetesAccess access;
    /** The replicas last seen above the target, by StatefulSet, so that it is said once. */
    private final Map<String, Integer> aboveTarget = new ConcurrentHashMap<>();

    StatefulSetReplicas(KubernetesClient client, KubernetesAccess access) {
        this.client = client;
        this.access = access;
    }

    /** Scales {@code statefulSet} up to {@code target} replicas if it has fewer; returns the replicas it has now. */
    int ensureAtLeast(String statefulSet, int target) {
        var resource = client.apps().statefulSets().inNamespace(access.namespace()).withName(statefulSet);
        Scale scale = access.call("get", "apps/statefulsets/scale", resource::scale);
        if (scale == null || scale.getSpec() == null) {
            LOG.warn("StatefulSet {} not found in namespace {}: the router cannot keep {} hosts of it. Check"
                    + " steadfast.router.scheduling.kubernetes.*-stateful-set against the install", statefulSet,
                    access.namespace(), target);
            return 0;
        }
        int replicas = scale.getSpec().getReplicas() == null ? 0 : scale.getSpec().getReplicas();
        if (replicas >= target) {
            if (replicas > target && !Integer.valueOf(replicas).equals(aboveTarget.put(statefulSet, replicas))) {
                LOG.info("StatefulSet {} has {} replicas, above the router's target {}: left as it is (the router"
                        + " never scales down)", statefulSet, replicas, target);
            }
            return replicas;
        }
        Scale wanted = new ScaleBuilder(scale).editSpec().withReplicas(target).endSpec().build();
        access.call("update", "apps/statefulsets/scale", () -> resource.scale(wanted));
        LOG.info("Scaled StatefulSet {} from {} to {} replicas (steadfast.router.scheduling target)", statefulSet,
                replicas, target);
        return target;
    }
}
