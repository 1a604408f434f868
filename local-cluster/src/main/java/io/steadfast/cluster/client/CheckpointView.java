package io.steadfast.cluster.client;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of a topology as the router lists it in {@code GET /api/v1/topologies/{id}/checkpoints}.
 *
 * @param status PENDING, COMPLETED or FAILED
 * @param durationMillis trigger to completion, or null while pending or when failed
 * @param failureReason why it failed (TIMEOUT, TASK_FAILED, STORE_UNAVAILABLE, ...), or null
 */
public record CheckpointView(long checkpointId, String status, @Nullable Instant triggeredAt,
        @Nullable Instant completedAt, @Nullable Long durationMillis, long sizeBytes, @Nullable String failureReason,
        @Nullable String failureMessage) {

    public static final String COMPLETED = "COMPLETED";
    public static final String FAILED = "FAILED";

    public boolean isCompleted() {
        return COMPLETED.equals(status);
    }

    public boolean isFailed() {
        return FAILED.equals(status);
    }
}
