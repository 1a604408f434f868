package io.steadfast.router.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostAdmission;
import io.steadfast.router.recovery.RecoveryOrchestrator;
import io.steadfast.router.scheduling.HostProvisioner;
import io.steadfast.router.scheduling.HostProvisioning;
import io.steadfast.router.scheduling.SchedulingProperties;
import io.steadfast.router.scheduling.kubernetes.KubernetesAccess;
import io.steadfast.router.scheduling.kubernetes.KubernetesHostProvisioner;
import io.steadfast.router.scheduling.kubernetes.KubernetesSchedulingHealthIndicator;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires host scheduling ({@code steadfast.router.scheduling.*}): nothing in mode {@code none}, the Kubernetes
 * provisioner and its health component in mode {@code kubernetes}. The provisioner runs with the application
 * ({@link HostProvisioning}, a {@code SmartLifecycle}).
 */
@Configuration(proxyBeanMethods = false)
class SchedulingConfiguration {

    private static final String MODE = "steadfast.router.scheduling.mode";

    /**
     * On the Kubernetes client Spring Cloud Kubernetes configures in a cluster (its namespace is the service account's,
     * or {@code spring.cloud.kubernetes.client.namespace}), else one from the usual fabric8 configuration.
     */
    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = "kubernetes")
    KubernetesHostProvisioner kubernetesHostProvisioner(ObjectProvider<KubernetesClient> clients,
                                                        SchedulingProperties scheduling, RouterProperties router,
                                                        HeartbeatFailureDetector detector,
                                                        RecoveryOrchestrator recoveries, Clock clock) {
        KubernetesClient client = clients.getIfAvailable(() -> new KubernetesClientBuilder().build());
        String namespace = client.getNamespace() == null ? "default" : client.getNamespace();
        // as long as the router waits for the hosts of stored placements to re-register after a restart
        Duration twoTimeouts = router.heartbeatTimeout().multipliedBy(2);
        Duration grace = router.hostStartupGrace().compareTo(twoTimeouts) > 0 ? router.hostStartupGrace() : twoTimeouts;
        return new KubernetesHostProvisioner(client, new KubernetesAccess(namespace, clock), scheduling, detector,
                recoveries::isHandlingFailureOf, clock, grace);
    }

    /** The health component {@code kubernetesScheduling}. */
    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = "kubernetes")
    KubernetesSchedulingHealthIndicator kubernetesSchedulingHealthIndicator(KubernetesHostProvisioner provisioner) {
        return new KubernetesSchedulingHealthIndicator(provisioner.access(), provisioner);
    }

    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = "local")
    HostProvisioner localHostProvisioner() {
        throw new IllegalStateException("steadfast.router.scheduling.mode=local is not available yet: start the hosts"
                + " with ./steadfast local and leave steadfast.router.scheduling.mode at none");
    }

    @Bean
    @ConditionalOnBean(HostProvisioner.class)
    HostProvisioning hostProvisioning(HostProvisioner provisioner, HeartbeatFailureDetector detector,
                                      HostAdmission admission) {
        return new HostProvisioning(provisioner, detector, admission);
    }
}
