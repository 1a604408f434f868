package io.steadfast.router.scheduling;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Host scheduling, prefix {@code steadfast.router.scheduling}.
 *
 * @param mode who starts the hosts: {@code none} (someone else; the default), {@code local} (host processes on this
 *             machine) or {@code kubernetes}
 * @param peHosts how many PE hosts to keep, active and standby together ({@code steadfast.router.standby-hosts} of them
 *                are kept free of tasks); 0 leaves the number to whoever deployed them
 * @param voters how many voter hosts to keep; 0 leaves the number to whoever deployed them
 * @param kubernetes the pods and StatefulSets of the hosts, in {@code kubernetes} mode
 * @param local the host processes, in {@code local} mode
 */
@Validated
@ConfigurationProperties("steadfast.router.scheduling")
public record SchedulingProperties(
        @NotNull @DefaultValue("none") SchedulingMode mode,
        @DefaultValue("0") int peHosts,
        @DefaultValue("0") int voters,
        @Valid @DefaultValue Kubernetes kubernetes,
        @Valid @DefaultValue Local local) {

    public SchedulingProperties {
        if (peHosts < 0 || voters < 0) {
            throw new IllegalArgumentException("steadfast.router.scheduling.pe-hosts and .voters must be >= 0, were "
                    + peHosts + " and " + voters + "; use 0 to leave the number of hosts to whoever deployed them");
        }
        if (mode == SchedulingMode.KUBERNETES && (kubernetes.instance() == null || kubernetes.instance().isBlank())) {
            throw new IllegalArgumentException("steadfast.router.scheduling.kubernetes.instance is required with"
                    + " steadfast.router.scheduling.mode=kubernetes: set it to the hosts' app.kubernetes.io/instance"
                    + " label (the Helm release), so that the router acts only on the pods of its own install");
        }
        if (mode == SchedulingMode.LOCAL && (peHosts > 0 && local.peHostJar() == null
                || voters > 0 && local.voterJar() == null)) {
            throw new IllegalArgumentException("steadfast.router.scheduling.mode=local starts hosts from their jars:"
                    + " set steadfast.router.scheduling.local.pe-host-jar (for pe-hosts=" + peHosts + ") and"
                    + " steadfast.router.scheduling.local.voter-jar (for voters=" + voters + ")");
        }
    }

    /**
     * The hosts' pods and StatefulSets. The namespace is the Kubernetes client's (the service account's namespace in a
     * cluster, or {@code spring.cloud.kubernetes.client.namespace}).
     *
     * @param peHostStatefulSet the StatefulSet of the PE hosts
     * @param voterStatefulSet the StatefulSet of the voters
     * @param instance the value of the hosts' {@code app.kubernetes.io/instance} label (the Helm release); required in
     *                 {@code kubernetes} mode
     * @param forceDeleteAfter how long a failed host's pod may stay Terminating (past its deletion time) before the
     *                         router force-deletes it, so that its StatefulSet can recreate it: a pod on a lost node
     *                         never finishes terminating. Safe because the host's lease and the tasks' incarnations
     *                         fence whatever still runs there
     * @param reconcileInterval how often the replicas and stuck pods are checked, besides on every failure
     */
    public record Kubernetes(@NotNull @DefaultValue("steadfast-pe-host") String peHostStatefulSet,
                             @NotNull @DefaultValue("steadfast-voter") String voterStatefulSet,
                             @Nullable String instance,
                             @NotNull @DefaultValue("30s") Duration forceDeleteAfter,
                             @NotNull @DefaultValue("5s") Duration reconcileInterval) {

        public Kubernetes {
            if (reconcileInterval != null && (reconcileInterval.isZero() || reconcileInterval.isNegative())) {
                throw new IllegalArgumentException("steadfast.router.scheduling.kubernetes.reconcile-interval must be"
                        + " positive, was " + reconcileInterval);
            }
            if (forceDeleteAfter != null && forceDeleteAfter.isNegative()) {
                throw new IllegalArgumentException("steadfast.router.scheduling.kubernetes.force-delete-after must be"
                        + " >= 0, was " + forceDeleteAfter);
            }
        }
    }

    /**
     * Host processes the router starts on its own machine: {@code java -Dsteadfast.local.run-dir=<run-dir> <jvm-args>
     * [-Dloader.path=<operator jars>] -jar <jar> <settings>}, each logging to {@code <run-dir>/<host id>.log}, ids
     * {@code host-<n>} and {@code voter-<n>} numbered past every id seen. The router stops them when it shuts down.
     *
     * @param peHostJar the pe-host-service jar
     * @param voterJar the voter-service jar
     * @param jvmArgs JVM arguments of every host
     * @param runDir where the hosts' logs go; every host's command line names it, as
     *               {@code -Dsteadfast.local.run-dir=<absolute run-dir>}, so that the hosts of one run directory can be
     *               found (and stopped) without asking the router
     * @param operatorJars jars of operator types the hosts load (the router's own {@code -Dloader.path})
     * @param hostSettings more settings for every host, e.g. {@code --steadfast.host.fault-injection.enabled=true}
     * @param routerUrl the router URL the hosts register with, or the URLs of every router replica (comma separated);
     *                  default {@code http://127.0.0.1:<the router's port>}
     * @param checkpointUrl the checkpoint-service URL the hosts use; default
     *                      {@code steadfast.router.checkpoint.service-url}
     * @param stopGrace how long a host stopped at shutdown gets before it is killed
     * @param reconcileInterval how often the number of hosts is checked
     */
    public record Local(@Nullable Path peHostJar, @Nullable Path voterJar, @Nullable List<String> jvmArgs,
                       @NotNull @DefaultValue("local-hosts") Path runDir, @Nullable List<Path> operatorJars,
                       @Nullable List<String> hostSettings, @Nullable List<URI> routerUrl, @Nullable URI checkpointUrl,
                       @NotNull @DefaultValue("10s") Duration stopGrace,
                       @NotNull @DefaultValue("1s") Duration reconcileInterval) {

        /** Nothing to start. */
        public static final Local NONE = new Local(null, null, null, Path.of("local-hosts"), null, null, null, null,
                Duration.ofSeconds(10), Duration.ofSeconds(1));

        public Local {
            jvmArgs = jvmArgs == null ? List.of("-Xmx1g", "-XX:TieredStopAtLevel=1") : List.copyOf(jvmArgs);
            operatorJars = operatorJars == null ? List.of() : List.copyOf(operatorJars);
            hostSettings = hostSettings == null ? List.of() : List.copyOf(hostSettings);
            routerUrl = routerUrl == null || routerUrl.isEmpty() ? null : List.copyOf(routerUrl);
            if (reconcileInterval != null && (reconcileInterval.isZero() || reconcileInterval.isNegative())) {
                throw new IllegalArgumentException("steadfast.router.scheduling.local.reconcile-interval must be"
                        + " positive, was " + reconcileInterval);
            }
        }
    }
}
