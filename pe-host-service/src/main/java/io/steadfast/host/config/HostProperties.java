package io.steadfast.host.config;

import io.steadfast.host.execution.HostLimits;
import io.steadfast.runtime.plan.HostKind;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of a processing-node host, prefix {@code steadfast.host}.
 *
 * @param id the host id, unique in the cluster; defaults to {@code host-} (a voter: {@code voter-}) and six random
 *           characters
 * @param kind what this host runs, as it tells the router when it registers: {@code PE} (every task but the vote
 *             tasks; a pe-host-service) or {@code VOTER} (only vote tasks; a voter-service sets it)
 * @param routerUrl base URL of the router this host registers with, or the URLs of every router replica (comma
 *                  separated): the host follows the one that leads
 * @param advertisedUrl base URL the router uses to reach this host's REST API; defaults to
 *                      {@code http://127.0.0.1:<actual server port>}
 * @param data the data plane
 * @param heartbeatInterval how often the host sends its task reports to the router
 * @param checkpointUrl base URL of the checkpoint-service that stores this host's task snapshots
 * @param snapshots uploads of snapshots and the resilience of the calls to the checkpoint-service
 * @param faultInjection fault injection for demos and tests
 * @param unknownTopologyGrace how long a topology the router's heartbeat answer does not mention may run here
 *                             before this host cancels it (a deployment in progress reaches the router's view
 *                             only after every host accepted it)
 * @param suspicions reports of peers whose data-plane connection dropped
 * @param replayLog shipping the channels' output logs to the checkpoint-service for local recovery
 * @param limits the most tasks and channels this host runs at once; beyond them it refuses a deployment
 * @param instance what tells this incarnation of the host from an earlier one with the same id, reported when it
 *                 registers: on Kubernetes the pod's uid (the downward API), so that the router matches pod events to
 *                 the host process that runs in the pod; empty elsewhere
 */
@Validated
@ConfigurationProperties("steadfast.host")
public record HostProperties(
        String id,
        @NotNull @DefaultValue("PE") HostKind kind,
        @NotEmpty @DefaultValue("http://127.0.0.1:8080") List<URI> routerUrl,
        @Nullable URI advertisedUrl,
        @Valid @DefaultValue Data data,
        @NotNull @DefaultValue("200ms") Duration heartbeatInterval,
        @NotNull @DefaultValue("http://127.0.0.1:8082") URI checkpointUrl,
        @Valid @DefaultValue Snapshots snapshots,
        @Valid @DefaultValue FaultInjection faultInjection,
        @NotNull @DefaultValue("15s") Duration unknownTopologyGrace,
        @Valid @DefaultValue Suspicions suspicions,
        @Valid @DefaultValue ReplayLog replayLog,
        @Valid @DefaultValue Limits limits,
        @Nullable String instance) {

    private static final String ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

    public HostProperties {
        if (id == null || id.isBlank()) {
            id = (kind == HostKind.VOTER ? "voter-" : "host-") + randomSuffix();
        }
        if (id.length() > 128) {
            throw new IllegalArgumentException("steadfast.host.id is " + id.length()
                    + " characters long; use at most 128");
        }
        requirePositive("steadfast.host.heartbeat-interval", heartbeatInterval);
        instance = instance == null || instance.isBlank() ? null : instance.strip();
        requirePositive("steadfast.host.unknown-topology-grace", unknownTopologyGrace);
    }

    /**
     * The data plane.
     *
     * @param bindAddress ZeroMQ endpoint the data plane binds, e.g. {@code tcp://127.0.0.1:*} for an ephemeral
     *                    port (the bound endpoint is what the host advertises)
     * @param creditBytes each input channel's window in bytes (0: 32 frames whatever their size): a channel of
     *                    small frames gets more of them in flight (at most 1,024), which is what lets a recovered
     *                    task take in its replayed input at speed
     * @param ioStallTimeout how long the data plane's IO thread may go without a pass before this host counts as
     *                       failed: it stops heartbeating (so the router recovers its tasks elsewhere) and its
     *                       {@code dataPlane} health turns DOWN; far above any pause the lease already covers
     * @param advertisedHost the address peers reach the data plane at when it binds a wildcard address, e.g. the pod
     *                       IP with {@code bind-address: tcp://0.0.0.0:7000}; empty: the bound endpoint
     */
    public record Data(@NotBlank @DefaultValue("tcp://127.0.0.1:*") String bindAddress,
                       @Min(0) @DefaultValue("1048576") int creditBytes,
                       @NotNull @DefaultValue("5s") Duration ioStallTimeout,
                       @Nullable String advertisedHost) {

        public Data {
            requirePositive("steadfast.host.data.io-stall-timeout", ioStallTimeout);
            advertisedHost = advertisedHost == null || advertisedHost.isBlank() ? null : advertisedHost.strip();
        }
    }

    /**
     * Snapshot uploads and the calls to the checkpoint-service.
     *
     * @param uploadThreads threads that upload snapshots ({@code steadfast-host-snapshot-upload-N})
     * @param uploadQueue snapshots waiting for an upload thread; beyond that a snapshot is declined at once
     * @param retryAttempts attempts of one store call (1 = no retry)
     * @param retryWait wait between attempts
     * @param circuitOpenFor how long the circuit breaker fails calls at once after the store kept failing
     * @param requestTimeout read timeout of one call to the checkpoint-service
     */
    public record Snapshots(@Min(1) @DefaultValue("2") int uploadThreads,
                            @Min(1) @DefaultValue("256") int uploadQueue,
                            @Min(1) @DefaultValue("3") int retryAttempts,
                            @NotNull @DefaultValue("50ms") Duration retryWait,
                            @NotNull @DefaultValue("2s") Duration circuitOpenFor,
                            @NotNull @DefaultValue("5s") Duration requestTimeout) {

        public Snapshots {
            requirePositive("steadfast.host.snapshots.retry-wait", retryWait);
            requirePositive("steadfast.host.snapshots.circuit-open-for", circuitOpenFor);
            requirePositive("steadfast.host.snapshots.request-timeout", requestTimeout);
        }
    }

    /**
     * @param enabled whether {@code POST /api/v1/fault/kill} halts this process (otherwise it is 404)
     */
    public record FaultInjection(@DefaultValue("false") boolean enabled) {
    }

    /**
     * Reports to the router of peer hosts whose data-plane connection dropped: hints that let the router check
     * such a host at once instead of waiting for its heartbeat timeout.
     *
     * @param enabled whether this host reports them at all
     * @param minInterval the shortest time between two reports about the same peer host
     */
    public record Suspicions(@DefaultValue("true") boolean enabled,
                             @NotNull @DefaultValue("1s") Duration minInterval) {

        public Suspicions {
            requirePositive("steadfast.host.suspicions.min-interval", minInterval);
        }
    }

    /**
     * Shipping the output logs of this host's channels to the checkpoint-service ({@code ReplayLogShipper}), so
     * that a channel can be replayed after this host is lost.
     *
     * @param enabled whether output logs are shipped (default false, see {@code ReplayLogConfiguration})
     * @param queueCapacity bytes of segments queued or being shipped; beyond that segments are dropped and their
     *                      channels' shipped logs marked incomplete (recovering them then needs a global restore)
     * @param batchSize bytes of segments per upload, at most; at most {@code queue-capacity}
     * @param maxSegmentSize the largest segment shipped; keep it at or below the checkpoint-service's
     *                       {@code steadfast.checkpoint.replay-logs.max-segment-size}. A larger one is dropped and
     *                       its channel marked incomplete
     * @param linger how long a queued segment may wait for its batch to fill
     * @param retryWait the wait after a failed upload; doubled after each further failure
     * @param retryMaxWait the longest wait between two attempts while the checkpoint-service is down
     * @param requestTimeout read timeout of one call to the checkpoint-service
     * @param drainTimeout how long shipping goes on at shutdown before what is queued is dropped
     */
    public record ReplayLog(@DefaultValue("false") boolean enabled,
                            @NotNull @DefaultValue("64MB") DataSize queueCapacity,
                            @NotNull @DefaultValue("1MB") DataSize batchSize,
                            @NotNull @DefaultValue("8MB") DataSize maxSegmentSize,
                            @NotNull @DefaultValue("100ms") Duration linger,
                            @NotNull @DefaultValue("100ms") Duration retryWait,
                            @NotNull @DefaultValue("5s") Duration retryMaxWait,
                            @NotNull @DefaultValue("10s") Duration requestTimeout,
                            @NotNull @DefaultValue("5s") Duration drainTimeout) {

        private static final String KEY = "steadfast.host.replay-log.";

        public ReplayLog {
            requirePositive(KEY + "linger", linger);
            requirePositive(KEY + "retry-wait", retryWait);
            requirePositive(KEY + "retry-max-wait", retryMaxWait);
            requirePositive(KEY + "request-timeout", requestTimeout);
            requirePositive(KEY + "drain-timeout", drainTimeout);
            if (batchSize != null && batchSize.toBytes() <= 0) {
                throw new IllegalArgumentException(KEY + "batch-size must be positive, was " + batchSize
                        + "; use e.g. 1MB");
            }
            if (maxSegmentSize != null && maxSegmentSize.toBytes() <= 0) {
                throw new IllegalArgumentException(KEY + "max-segment-size must be positive, was " + maxSegmentSize
                        + "; use the checkpoint-service's steadfast.checkpoint.replay-logs.max-segment-size, e.g. 8MB");
            }
            if (batchSize != null && queueCapacity != null && queueCapacity.compareTo(batchSize) < 0) {
                throw new IllegalArgumentException(KEY + "queue-capacity (" + queueCapacity + ") is below " + KEY
                        + "batch-size (" + batchSize + "); raise queue-capacity or lower batch-size");
            }
            if (retryWait != null && retryMaxWait != null && retryWait.compareTo(retryMaxWait) > 0) {
                throw new IllegalArgumentException(KEY + "retry-wait (" + retryWait + ") exceeds " + KEY
                        + "retry-max-wait (" + retryMaxWait + ")");
            }
        }
    }

    /**
     * The most this host runs at once, over all topologies: a deployment or an in-place recovery that would take it
     * beyond either limit is refused (409, reason {@code OVER_CAPACITY}) before anything of it is built, so that the
     * tasks already here keep running. The defaults suit a heap of about 1 GiB; see {@link HostLimits}.
     *
     * @param maxTasks the most tasks; each runs on a thread of its own
     * @param maxChannels the most channels with at least one end at a task here; each takes about 36 KiB of heap
     *                    before any event flows, so the default, 8,192, takes about 288 MiB
     */
    public record Limits(@Min(1) @DefaultValue("" + HostLimits.DEFAULT_MAX_TASKS) int maxTasks,
                         @Min(1) @DefaultValue("" + HostLimits.DEFAULT_MAX_CHANNELS) int maxChannels) {

        public HostLimits toHostLimits() {
            return new HostLimits(maxTasks, maxChannels);
        }
    }

    private static void requirePositive(String key, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException(key + " must be positive, was " + value + "; use e.g. 200ms");
        }
    }

    private static String randomSuffix() {
        SecureRandom random = new SecureRandom();
        StringBuilder suffix = new StringBuilder(6);
        for (int i = 0; i < 6; i++) {
            suffix.append(ID_ALPHABET.charAt(random.nextInt(ID_ALPHABET.length())));
        }
        return suffix.toString();
    }
}
