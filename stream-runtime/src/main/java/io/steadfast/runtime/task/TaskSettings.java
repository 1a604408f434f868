package io.steadfast.runtime.task;

import java.time.Duration;
import java.util.Objects;

/**
 * How a task batches and paces.
 *
 * @param frameTargetBytes a frame is sent once its payload reaches this size
 * @param maxRecordsPerFrame a frame is sent once it holds this many records
 * @param linger a frame that is not full is sent at the latest this long after its first record: at the end of
 *               the linger period its first record fell in, periods aligned on the JVM's clock so that a host's
 *               channels send together (see {@code ChannelWriter.lingerEnds})
 * @param sourceBatch events a source emits per turn of the mailbox loop
 * @param watermarkInterval how often an idle channel gets the current watermark
 */
public record TaskSettings(int frameTargetBytes, int maxRecordsPerFrame, Duration linger, int sourceBatch,
                           Duration watermarkInterval) {

    public TaskSettings {
        Objects.requireNonNull(linger, "linger");
        Objects.requireNonNull(watermarkInterval, "watermarkInterval");
        if (frameTargetBytes < 64) {
            throw new IllegalArgumentException("frameTargetBytes must be >= 64, was " + frameTargetBytes);
        }
        if (maxRecordsPerFrame < 1) {
            throw new IllegalArgumentException("maxRecordsPerFrame must be >= 1, was " + maxRecordsPerFrame);
        }
        if (linger.isNegative() || linger.isZero()) {
            throw new IllegalArgumentException("linger must be positive, was " + linger);
        }
        if (sourceBatch < 1) {
            throw new IllegalArgumentException("sourceBatch must be >= 1, was " + sourceBatch);
        }
        if (watermarkInterval.isNegative() || watermarkInterval.isZero()) {
            throw new IllegalArgumentException("watermarkInterval must be positive, was " + watermarkInterval);
        }
    }

    /**
     * 32 KiB frames of at most 4,096 records, a linger of 20 ms (a channel of a few hundred records a second would
     * otherwise send a frame per record, and its per-frame cost, not its records, would load the machine; a full
     * channel sends frames long before: see docs/performance.md for latency), sources polled 1,024 records at a
     * time, a watermark every 50 ms.
     */
    public static TaskSettings defaults() {
        return new TaskSettings(32 * 1024, 4096, Duration.ofMillis(20), 1024, Duration.ofMillis(50));
    }
}
