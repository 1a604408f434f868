package io.steadfast.router.checkpoint;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint as the store records it.
 *
 * @param checkpointId its id
 * @param status PENDING, COMPLETED or FAILED
 * @param triggeredAt when the coordinator triggered it
 * @param completedAt when it completed, or null
 * @param durationMillis trigger to completion, or null
 * @param sizeBytes total size of its snapshots
 * @param failureReason a {@link CheckpointFailureReason} name, or null
 * @param failureMessage what failed, or null
 */
public record CheckpointStats(long checkpointId, String status, Instant triggeredAt, @Nullable Instant completedAt,
                              @Nullable Long durationMillis, long sizeBytes, @Nullable String failureReason,
                              @Nullable String failureMessage) {
}
