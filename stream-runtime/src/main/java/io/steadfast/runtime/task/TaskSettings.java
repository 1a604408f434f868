package io.steadfast.runtime.task;

import java.time.Duration;
import java.util.Objects;

/**
 * How a task batches and paces.
 *
 * @param frameTargetBytes a frame is sent once its payload reaches this size
 * @param maxRecordsPerFrame a frame is sent once it holds this many records
 * @param linger a frame that is not full is sent at the latest this long after its first record
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

    public static TaskSettings defaults() {
        return new TaskSettings(32 * 1024, 4096, Duration.ofMillis(5), 1024, Duration.ofMillis(50));
    }
}
