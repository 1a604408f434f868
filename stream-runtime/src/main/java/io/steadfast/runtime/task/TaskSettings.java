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
 * @param shortLinger a frame holding at least {@code shortLingerRecords} is sent this long after its first record
 *                    (not aligned: a full channel's frames would be cut in two): a busy channel's records wait no
 *                    longer than that for the frame to fill, while a quiet one still sends at most a frame per
 *                    linger
 * @param shortLingerRecords how many records make a frame worth sending after the short linger
 * @param sourceBatch events a source emits per turn of the mailbox loop
 * @param watermarkInterval how often an idle channel gets the current watermark
 */
public record TaskSettings(int frameTargetBytes, int maxRecordsPerFrame, Duration linger, Duration shortLinger,
                           int shortLingerRecords, int sourceBatch, Duration watermarkInterval) {

    public TaskSettings {
        Objects.requireNonNull(linger, "linger");
        Objects.requireNonNull(shortLinger, "shortLinger");
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
        if (shortLinger.isNegative() || shortLinger.isZero() || shortLinger.compareTo(linger) > 0) {
            throw new IllegalArgumentException("shortLinger must be positive and at most the linger (" + linger
                    + "), was " + shortLinger);
        }
        if (shortLingerRecords < 1) {
            throw new IllegalArgumentException("shortLingerRecords must be >= 1, was " + shortLingerRecords);
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
     * otherwise send a frame per record, and its per-frame cost, not its records, would load the machine), shortened
     * to 1 ms for a frame of 64 records or more (a channel of tens of thousands of records a second then pays at most
     * a frame per 64 records and its records wait a millisecond, not the time a frame takes to fill; see
     * docs/performance.md for latency), sources polled 1,024 records at a time, a watermark every 50 ms.
     */
    public static TaskSettings defaults() {
        return new TaskSettings(32 * 1024, 4096, Duration.ofMillis(20), Duration.ofMillis(1), 64, 1024,
                Duration.ofMillis(50));
    }
}
