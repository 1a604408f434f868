package io.steadfast.router.scheduling.kubernetes;

import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The health component {@code kubernetesScheduling}: DOWN while the Kubernetes API refuses one of the router's calls
 * (missing RBAC), naming each refused verb, resource and namespace and what to grant; otherwise UP with what the
 * router watches. The router itself keeps working from heartbeats meanwhile, so this component belongs in no probe
 * group. ({@code kubernetes} is Spring Cloud Kubernetes' own component, the pod's info.)
 */
public final class KubernetesSchedulingHealthIndicator extends AbstractHealthIndicator {

    private final KubernetesAccess access;
    private final KubernetesHostProvisioner provisioner;

    public KubernetesSchedulingHealthIndicator(KubernetesAccess access, KubernetesHostProvisioner provisioner) {
        super("Kubernetes host scheduling health check failed");
        this.access = access;
        this.provisioner = provisioner;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        List<KubernetesAccess.Denial> denials = access.denials();
        builder.withDetail("namespace", access.namespace()).withDetail("active", provisioner.isRunning())
                .withDetail("watchingPods", provisioner.isWatchingPods());
        if (denials.isEmpty()) {
            builder.up();
            return;
        }
        builder.down().withDetail("denied", denials.stream().map(denial -> Map.of("verb", denial.verb(),
                "resource", denial.resource(), "namespace", denial.namespace(), "error", denial.describe(),
                "grant", denial.grant(), "since", denial.at().toString())).toList());
    }
}
