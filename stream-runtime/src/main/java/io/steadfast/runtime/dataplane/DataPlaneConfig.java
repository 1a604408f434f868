package io.steadfast.runtime.dataplane;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Configuration of one {@link DataPlane}: where it binds, its flow control, its timeouts and its output logs.
 * Immutable and validated on construction; every message names the offending field and the value seen.
 *
 * @param bindAddress ZeroMQ endpoint the ROUTER binds, e.g. {@code tcp://127.0.0.1:*} (ephemeral port, read back
 *                    through {@link DataPlane#endpoint()}) or {@code tcp://0.0.0.0:7400}
 * @param outputLog   memory bound and spill files of the output logs ({@link Retention#UNTIL_TRUNCATED}); frames
 *                    retained only until consumed are bounded by the receiver's credit instead
 * @param advertisedHost the host name or address peers reach this data plane at, in place of the one bound (which
 *                    may be {@code 0.0.0.0}), e.g. a pod's IP; null advertises the bound endpoint as it is
 */
public record DataPlaneConfig(String bindAddress, FlowControl flowControl, Timeouts timeouts,
                              OutputLogConfig outputLog, String advertisedHost) {

    public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 20;
    public static final int DEFAULT_CREDIT_FRAMES = 32;
    /** The most frames a window in bytes ({@link FlowControl#creditBytes}) grants. */
    public static final int MAX_CREDIT_FRAMES = 1024;

    public DataPlaneConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        if (!bindAddress.startsWith("tcp://") && !bindAddress.startsWith("inproc://")
                && !bindAddress.startsWith("ipc://")) {
            throw new IllegalArgumentException("DataPlaneConfig.bindAddress must be a ZeroMQ endpoint such as "
                    + "'tcp://127.0.0.1:*', was '" + bindAddress + "'");
        }
        Objects.requireNonNull(flowControl, "flowControl");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(outputLog, "outputLog");
        if (advertisedHost != null && (advertisedHost.isBlank() || advertisedHost.contains("/")
                || advertisedHost.contains(":") && !advertisedHost.startsWith("["))) {
            throw new IllegalArgumentException("DataPlaneConfig.advertisedHost must be a host name or address such as"
                    + " '10.1.2.3' (an IPv6 address in brackets), without scheme or port; was '" + advertisedHost + "'");
        }
    }

    /**
     * The endpoint peers are given for a data plane that bound {@code bound}: {@code bound} itself, or with its host
     * replaced by {@link #advertisedHost}.
     */
    public String advertised(String bound) {
        if (advertisedHost == null || !bound.startsWith("tcp://")) {
            return bound;
        }
        int port = bound.lastIndexOf(':');
        return "tcp://" + advertisedHost + bound.substring(port);
    }

    public DataPlaneConfig withAdvertisedHost(String newAdvertisedHost) {
        return new DataPlaneConfig(bindAddress, flowControl, timeouts, outputLog, newAdvertisedHost);
    }

    /**
     * How large a frame may be and how many frames a sender may have delivered but not yet consumed per channel.
     *
     * @param maxFrameBytes  largest payload one frame may carry; larger frames are rejected by
     *                       {@link OutboundChannel#send} and dropped (counted) by a receiver
     * @param creditFrames   receiver window in frames; it bounds the sender's retained memory
     * @param creditBytes    0, or the receiver window in bytes: a receiver then grants as many frames as fit in it at
     *                       the average size of the frames it received (never fewer than {@code creditFrames}, at
     *                       most {@link #MAX_CREDIT_FRAMES}), so a channel of small frames (a low rate, flushed by
     *                       linger) is not held to a few records per round trip when it catches up
     * @param resyncInterval how long a sender with unacknowledged frames waits without hearing from the receiver
     *                       before it sends SYNC (and how often it repeats it)
     */
    public record FlowControl(int maxFrameBytes, int creditFrames, int creditBytes, Duration resyncInterval) {

        public FlowControl {
            if (maxFrameBytes < 1) {
                throw new IllegalArgumentException("DataPlaneConfig.maxFrameBytes must be >= 1, was " + maxFrameBytes);
            }
            if (creditFrames < 1) {
                throw new IllegalArgumentException("DataPlaneConfig.creditFrames must be >= 1, was " + creditFrames);
            }
            if (creditBytes < 0) {
                throw new IllegalArgumentException("DataPlaneConfig.creditBytes must be >= 0 (0: a window in frames"
                        + " only), was " + creditBytes);
            }
            requirePositive("resyncInterval", resyncInterval);
        }
    }

    /**
     * How connections are watched and how long shutdown may take.
     *
     * @param heartbeatInterval ZMTP heartbeat interval on every socket
     * @param heartbeatTimeout  ZMTP heartbeat timeout: a silent connection is dropped after this long
     * @param closeTimeout      how long {@link DataPlane#close()} waits for the IO thread to finish
     */
    public record Timeouts(Duration heartbeatInterval, Duration heartbeatTimeout, Duration closeTimeout) {

        public Timeouts {
            requirePositive("heartbeatInterval", heartbeatInterval);
            requirePositive("heartbeatTimeout", heartbeatTimeout);
            requirePositive("closeTimeout", closeTimeout);
            if (heartbeatTimeout.compareTo(heartbeatInterval) <= 0) {
                throw new IllegalArgumentException("DataPlaneConfig.heartbeatTimeout (" + heartbeatTimeout
                        + ") must be longer than heartbeatInterval (" + heartbeatInterval
                        + "), otherwise every idle connection is dropped; raise heartbeatTimeout");
            }
        }
    }

    /**
     * Ephemeral port on loopback, 1 MiB frames, 32 frames credit, 200 ms resync, 200/600 ms heartbeats, and
     * {@link OutputLogConfig#defaults()}: 16 MiB of output log in memory per channel, spilling under
     * {@code java.io.tmpdir}.
     */
    public static DataPlaneConfig defaults() {
        return new DataPlaneConfig("tcp://127.0.0.1:*",
                new FlowControl(DEFAULT_MAX_FRAME_BYTES, DEFAULT_CREDIT_FRAMES, 0, Duration.ofMillis(200)),
                new Timeouts(Duration.ofMillis(200), Duration.ofMillis(600), Duration.ofSeconds(5)),
                OutputLogConfig.defaults(), null);
    }

    /** See {@link FlowControl#maxFrameBytes}. */
    public int maxFrameBytes() {
        return flowControl.maxFrameBytes();
    }

    /** See {@link FlowControl#creditFrames}. */
    public int creditFrames() {
        return flowControl.creditFrames();
    }

    /** See {@link FlowControl#creditBytes}. */
    public int creditBytes() {
        return flowControl.creditBytes();
    }

    /** See {@link FlowControl#resyncInterval}. */
    public Duration resyncInterval() {
        return flowControl.resyncInterval();
    }

    /** See {@link Timeouts#heartbeatInterval}. */
    public Duration heartbeatInterval() {
        return timeouts.heartbeatInterval();
    }

    /** See {@link Timeouts#heartbeatTimeout}. */
    public Duration heartbeatTimeout() {
        return timeouts.heartbeatTimeout();
    }

    /** See {@link Timeouts#closeTimeout}. */
    public Duration closeTimeout() {
        return timeouts.closeTimeout();
    }

    public DataPlaneConfig withBindAddress(String newBindAddress) {
        return new DataPlaneConfig(newBindAddress, flowControl, timeouts, outputLog, advertisedHost);
    }

    public DataPlaneConfig withMaxFrameBytes(int newMaxFrameBytes) {
        return withFlowControl(new FlowControl(newMaxFrameBytes, creditFrames(), creditBytes(), resyncInterval()));
    }

    public DataPlaneConfig withCreditFrames(int newCreditFrames) {
        return withFlowControl(new FlowControl(maxFrameBytes(), newCreditFrames, creditBytes(), resyncInterval()));
    }

    public DataPlaneConfig withCreditBytes(int newCreditBytes) {
        return withFlowControl(new FlowControl(maxFrameBytes(), creditFrames(), newCreditBytes, resyncInterval()));
    }

    public DataPlaneConfig withResyncInterval(Duration newResyncInterval) {
        return withFlowControl(new FlowControl(maxFrameBytes(), creditFrames(), creditBytes(), newResyncInterval));
    }

    public DataPlaneConfig withFlowControl(FlowControl newFlowControl) {
        return new DataPlaneConfig(bindAddress, newFlowControl, timeouts, outputLog, advertisedHost);
    }

    public DataPlaneConfig withTimeouts(Timeouts newTimeouts) {
        return new DataPlaneConfig(bindAddress, flowControl, newTimeouts, outputLog, advertisedHost);
    }

    public DataPlaneConfig withOutputLog(OutputLogConfig newOutputLog) {
        return new DataPlaneConfig(bindAddress, flowControl, timeouts, newOutputLog, advertisedHost);
    }

    /** Per channel: see {@link OutputLogConfig#memoryBytes()}. */
    public DataPlaneConfig withOutputLogMemoryBytes(long newMemoryBytes) {
        return withOutputLog(outputLog.withMemoryBytes(newMemoryBytes));
    }

    /** See {@link OutputLogConfig#spillDirectory()}. */
    public DataPlaneConfig withSpillDirectory(Path newSpillDirectory) {
        return withOutputLog(outputLog.withSpillDirectory(newSpillDirectory));
    }

    private static void requirePositive(String field, Duration value) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("DataPlaneConfig." + field + " must be positive, was " + value);
        }
    }
}
