package io.steadfast.router.config;

import io.steadfast.runtime.topology.TopologyLimits;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the router, prefix {@code steadfast.router}.
 *
 * @param heartbeatTimeout a host that sent no heartbeat for this long is DEAD
 * @param hostStartupGrace a host that registered less than this long ago is DEAD only after this long of silence
 *                         (a JVM that just started answers late on a loaded machine); 0 turns it off
 * @param limits bounds on submitted topologies
 * @param hostClient calls from the router to hosts
 * @param checkpoint checkpoint coordination
 * @param suspicion how reports of dropped data-plane connections are checked
 * @param standbyHosts how many live hosts of each kind (PE hosts, voters) to keep free of tasks, as warm standbys
 *                     that a failed host's tasks are recovered onto (local recovery); new topologies are not placed
 *                     on them
 */
@Validated
@ConfigurationProperties("steadfast.router")
public record RouterProperties(
        @NotNull @DefaultValue("800ms") Duration heartbeatTimeout,
        @NotNull @DefaultValue("3s") Duration hostStartupGrace,
        @Valid @DefaultValue Limits limits,
        @Valid @DefaultValue HostClient hostClient,
        @Valid @DefaultValue Checkpoint checkpoint,
        @Valid @DefaultValue Suspicion suspicion,
        @DefaultValue("0") int standbyHosts) {

    public RouterProperties {
        requirePositive("steadfast.router.heartbeat-timeout", heartbeatTimeout);
        if (standbyHosts < 0) {
            throw new IllegalArgumentException("steadfast.router.standby-hosts must be >= 0, was " + standbyHosts
                    + "; use 0 to place topologies on every live host");
        }
        if (hostStartupGrace.isNegative()) {
            throw new IllegalArgumentException("steadfast.router.host-startup-grace must be >= 0, was "
                    + hostStartupGrace + "; use 0 to judge new hosts by the heartbeat timeout alone");
        }
        if (suspicion != null && suspicion.enabled() && suspicion.minSilence().compareTo(heartbeatTimeout) >= 0) {
            throw new IllegalArgumentException("steadfast.router.suspicion.min-silence (" + suspicion.minSilence()
                    + ") must be shorter than steadfast.router.heartbeat-timeout (" + heartbeatTimeout + "), or the"
                    + " heartbeat timeout always decides first; lower it, or set steadfast.router.suspicion.enabled"
                    + "=false");
        }
    }

    /** The heartbeat interval the router suggests to hosts: a quarter of the timeout. */
    public Duration suggestedHeartbeatInterval() {
        return heartbeatTimeout.dividedBy(4);
    }

    /**
     * The lease the router gives hosts: three quarters of the heartbeat timeout. A host whose heartbeat, sent at
     * {@code s}, was answered holds its lease until {@code s + lease} by its own clock and stops its tasks when that
     * passes without a newer answer; the router declares it DEAD no earlier than {@code timeout} after it received
     * that heartbeat ({@code >= s}). So a host has stopped before the router moves its tasks, as long as the host's
     * clock runs no more than a third slower than the router's (docs/design.md, "Fencing").
     */
    public Duration hostLease() {
        return heartbeatTimeout.multipliedBy(3).dividedBy(4);
    }

    /**
     * Bounds on submitted topologies; each defaults to {@link TopologyLimits#defaults()}.
     *
     * @param maxOperators the most operators in one topology
     * @param maxParallelism the highest parallelism of one operator
     * @param maxTotalTasks the highest sum of the parallelism of all operators
     * @param maxInputsPerOperator the most declared inputs of one operator
     * @param maxSpecBytes the largest topology JSON accepted, in bytes; larger bodies get 413
     * @param maxChannels the most channels in a topology's plan (the sum over all inputs of upstream parallelism ×
     *                    downstream parallelism); each takes about 36 KiB of a host's heap before any event flows, and
     *                    the default, 65,536, is what 8 hosts hold at their default
     *                    {@code steadfast.host.limits.max-channels}. Larger plans get 400 naming the inputs
     */
    public record Limits(@Nullable Integer maxOperators, @Nullable Integer maxParallelism,
                         @Nullable Integer maxTotalTasks, @Nullable Integer maxInputsPerOperator,
                         @Nullable Integer maxSpecBytes, @Nullable Integer maxChannels) {

        public Limits {
            TopologyLimits defaults = TopologyLimits.defaults();
            maxOperators = maxOperators == null ? defaults.maxOperators() : maxOperators;
            maxParallelism = maxParallelism == null ? defaults.maxParallelism() : maxParallelism;
            maxTotalTasks = maxTotalTasks == null ? defaults.maxTotalTasks() : maxTotalTasks;
            maxInputsPerOperator = maxInputsPerOperator == null ? defaults.maxInputsPerOperator() : maxInputsPerOperator;
            maxSpecBytes = maxSpecBytes == null ? defaults.maxSpecBytes() : maxSpecBytes;
            maxChannels = maxChannels == null ? defaults.maxChannels() : maxChannels;
            try {
                new TopologyLimits(maxOperators, maxParallelism, maxTotalTasks, maxInputsPerOperator, maxSpecBytes,
                        maxChannels);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("steadfast.router.limits.* are inconsistent: " + e.getMessage()
                        + " (keys max-operators, max-parallelism, max-total-tasks, max-inputs-per-operator,"
                        + " max-spec-bytes, max-channels)", e);
            }
        }

        public TopologyLimits toTopologyLimits() {
            return new TopologyLimits(maxOperators, maxParallelism, maxTotalTasks, maxInputsPerOperator, maxSpecBytes,
                    maxChannels);
        }
    }

    /**
     * Calls from the router to hosts (deploy, cancel, state queries).
     *
     * @param connectTimeout how long to wait for a TCP connection to a host
     * @param readTimeout how long to wait for a host's answer
     */
    public record HostClient(@NotNull @DefaultValue("2s") Duration connectTimeout,
                             @NotNull @DefaultValue("10s") Duration readTimeout) {

        public HostClient {
            requirePositive("steadfast.router.host-client.connect-timeout", connectTimeout);
            requirePositive("steadfast.router.host-client.read-timeout", readTimeout);
        }
    }

    /**
     * Checkpoint coordination.
     *
     * @param interval time between checkpoints of a topology
     * @param timeout a checkpoint not complete this long after its trigger fails with TIMEOUT
     * @param maxConcurrent the most checkpoints of a topology pending at once; a due one is skipped meanwhile
     * @param serviceUrl base URL of the checkpoint-service that keeps checkpoint records
     */
    public record Checkpoint(@NotNull @DefaultValue("1s") Duration interval,
                             @NotNull @DefaultValue("10s") Duration timeout,
                             @jakarta.validation.constraints.Min(1) @DefaultValue("1") int maxConcurrent,
                             @NotNull @DefaultValue("http://127.0.0.1:8082") java.net.URI serviceUrl) {

        public Checkpoint {
            requirePositive("steadfast.router.checkpoint.interval", interval);
            requirePositive("steadfast.router.checkpoint.timeout", timeout);
        }
    }

    /**
     * Checks of a host that a peer reports its data-plane connection to dropped: the router probes the host's
     * {@code /actuator/health/liveness} at once and declares it DEAD if it does not answer and has been silent
     * for {@code minSilence}, which can beat the heartbeat timeout; a host that answers stays LIVE.
     *
     * @param enabled whether reports are checked (otherwise only heartbeats decide)
     * @param probeTimeout how long the probe waits to connect and for the answer
     * @param minSilence how long a host that does not answer must also have sent no heartbeat; 0 trusts the
     *                   probe alone. The default, 300 ms, is one missed heartbeat at the suggested interval
     * @param refusedIsDead whether a host whose machine refuses the probe's connection (nothing listens on its
     *                      control port: the process is gone, as after a crash or SIGKILL) is declared DEAD at once,
     *                      without waiting for {@code minSilence}; off by default (see docs/performance.md)
     */
    public record Suspicion(@DefaultValue("true") boolean enabled,
                            @NotNull @DefaultValue("300ms") Duration probeTimeout,
                            @NotNull @DefaultValue("300ms") Duration minSilence,
                            @DefaultValue("false") boolean refusedIsDead) {

        public Suspicion {
            requirePositive("steadfast.router.suspicion.probe-timeout", probeTimeout);
            if (minSilence.isNegative()) {
                throw new IllegalArgumentException("steadfast.router.suspicion.min-silence must be >= 0, was "
                        + minSilence);
            }
        }
    }

    private static void requirePositive(String key, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException(key + " must be positive, was " + value);
        }
    }
}
