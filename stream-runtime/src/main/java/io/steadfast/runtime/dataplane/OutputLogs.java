package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the output logs of one data plane share: the memory bound and spill directory from its configuration, the
 * segment codec, the sink segments are shipped to, and the reporting of spill failures. Makes each outbound
 * channel's {@link FrameLog} and {@link LogShipper}. IO thread only, apart from the factory methods and
 * {@link #segmentCodec}.
 */
final class OutputLogs {

    private static final Logger log = LoggerFactory.getLogger(OutputLogs.class);

    private final OutputLogConfig config;
    private final DataPlaneMetrics metrics;
    private final LogSegmentCodec segmentCodec;
    private final SpillDirectory spillDirectory;
    private final OutputLogSink sink;
    private final RateLimitedWarning spillWarning = new RateLimitedWarning(log);

    OutputLogs(OutputLogConfig config, DataPlaneMetrics metrics, FrameCodec frameCodec, OutputLogSink sink) {
        this.config = config;
        this.sink = sink;
        this.metrics = metrics;
        this.segmentCodec = new LogSegmentCodec(frameCodec);
        this.spillDirectory = new SpillDirectory(config.spillDirectory());
    }

    /**
     * An empty log for a channel. Only output logs ({@link Retention#UNTIL_TRUNCATED}) are bounded in memory:
     * frames retained until consumed are bounded by the receiver's credit. Frames read back from its spill files are
     * sent by a sender of {@code senderIncarnation}.
     */
    FrameLog newLog(ChannelId channel, int senderIncarnation, Retention retention) {
        long memoryBound = retention == Retention.UNTIL_TRUNCATED ? config.memoryBytes() : Long.MAX_VALUE;
        return new FrameLog(memoryBound, new SpilledFrames(channel, senderIncarnation, spillDirectory,
                config.spillFileBytes(), segmentCodec));
    }

    /**
     * Ships what a channel logs to the data plane's sink, as logged by a sender of {@code senderIncarnation}; channels
     * retained until consumed log nothing.
     */
    LogShipper newShipper(ChannelId channel, int senderIncarnation, Retention retention) {
        return new LogShipper(channel, senderIncarnation,
                retention == Retention.UNTIL_TRUNCATED ? sink : OutputLogSink.NONE, segmentCodec, metrics,
                System::nanoTime);
    }

    LogSegmentCodec segmentCodec() {
        return segmentCodec;
    }

    /**
     * Counts a failed spill write or read-back and warns, at most every few seconds for the data plane.
     *
     * @param failure     what could not be done, e.g. "spill its output log"
     * @param consequence what happens instead, e.g. "the frames stay in memory"
     */
    void spillFailed(ChannelId channel, String failure, String consequence, IOException e) {
        metrics.spillFailures.increment();
        spillWarning.warn(System.nanoTime(), "Channel {}: could not {} ({}); {}. Check the disk under "
                + "DataPlaneConfig.outputLog.spillDirectory {}", channel, failure, e.toString(), consequence,
                config.spillDirectory());
    }

    /** Deletes the data plane's spill directory; call after every channel's log is cleared. */
    void close() {
        spillDirectory.delete();
    }
}
