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
import io.steadfast.router.host.HostRegistry;
import io.steadfast.router.scheduling.local.LocalHostProvisioner;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Wires host scheduling ({@code steadfast.router.scheduling.*}): nothing in mode {@code none}, the Kubernetes
 * provisioner and its health component in mode {@code kubernetes}, host processes in mode {@code local}. The provisioner runs with the application
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
        return new KubernetesHostProvisioner(client, new KubernetesAccess(namespace, clock), scheduling, detector,
                recoveries::isHandlingFailureOf, clock, restartGrace(router));
    }

    /** The health component {@code kubernetesScheduling}. */
    @Bean
    @ConditionalOnProperty(name = MODE, havingValue = "kubernetes")
    KubernetesSchedulingHealthIndicator kubernetesSchedulingHealthIndicator(KubernetesHostProvisioner provisioner) {
        return new KubernetesSchedulingHealthIndicator(provisioner.access(), provisioner);
    }

    /** Host processes on this machine; stopped with the router ({@code close}). */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = MODE, havingValue = "local")
    LocalHostProvisioner localHostProvisioner(SchedulingProperties scheduling, RouterProperties router,
                                              HostRegistry hosts, HeartbeatFailureDetector detector, Clock clock,
                                              Environment environment) {
        requireFile(scheduling.local().peHostJar(), "pe-host-jar", scheduling.peHosts());
        requireFile(scheduling.local().voterJar(), "voter-jar", scheduling.voters());
        Supplier<String> routerUrl = () -> scheduling.local().routerUrl() != null
                ? String.join(",", scheduling.local().routerUrl().stream().map(URI::toString).toList())
                : "http://127.0.0.1:" + environment.getProperty("local.server.port",
                environment.getProperty("server.port", "8080"));
        return new LocalHostProvisioner(scheduling, routerUrl, router.checkpoint().serviceUrl(), hosts, detector, clock,
                restartGrace(router));
    }

    private static void requireFile(@Nullable Path jar, String key, int hosts) {
        if (hosts > 0 && (jar == null || !Files.isRegularFile(jar))) {
            throw new IllegalStateException("steadfast.router.scheduling.local." + key + " (" + jar + ") is not a"
                    + " file: the router cannot start its " + hosts + " hosts. Build it (mvn package) or set the key"
                    + " to the service's jar");
        }
    }

    /** As long as the router waits for the hosts of stored placements to re-register after a restart. */
    private static Duration restartGrace(RouterProperties router) {
        Duration twoTimeouts = router.heartbeatTimeout().multipliedBy(2);
        return router.hostStartupGrace().compareTo(twoTimeouts) > 0 ? router.hostStartupGrace() : twoTimeouts;
    }

    @Bean
    @ConditionalOnBean(HostProvisioner.class)
    HostProvisioning hostProvisioning(HostProvisioner provisioner, HeartbeatFailureDetector detector,
                                      HostAdmission admission) {
        return new HostProvisioning(provisioner, detector, admission);
    }
}
