package io.steadfast.checkpoint.checkpoint;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * When a checkpoint was triggered and when it ended.
 *
 * @param completedAt when it completed or failed; null while pending
 * @param durationMillis from trigger to completion or failure; null while pending
 */
public record CheckpointTiming(Instant triggeredAt, @Nullable Instant completedAt, @Nullable Long durationMillis) {

    public CheckpointTiming {
        Objects.requireNonNull(triggeredAt, "triggeredAt");
    }

    /** A checkpoint triggered at {@code triggeredAt} that has not ended. */
    public static CheckpointTiming pending(Instant triggeredAt) {
        return new CheckpointTiming(triggeredAt, null, null);
    }
}
