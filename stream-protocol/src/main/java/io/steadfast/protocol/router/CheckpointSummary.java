package io.steadfast.protocol.router;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.steadfast.runtime.plan.CheckpointId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of a topology as the checkpoint store records it, in the router's {@link TopologyCheckpoints}.
 *
 * @param checkpointId   its id
 * @param status         {@value #PENDING}, {@value #COMPLETED} or {@value #FAILED}
 * @param triggeredAt    when the router's coordinator triggered it
 * @param completedAt    when it completed, or null
 * @param durationMillis trigger to completion, or null while pending or when failed
 * @param sizeBytes      total size of its snapshots
 * @param failureReason  why it failed (TIMEOUT, TASK_FAILED, STORE_UNAVAILABLE, ...), or null
 * @param failureMessage what failed, or null
 */
@JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE) // its isX() queries are no JSON members
public record CheckpointSummary(CheckpointId checkpointId, String status, Instant triggeredAt,
                                @Nullable Instant completedAt, @Nullable Long durationMillis, long sizeBytes,
                                @Nullable String failureReason, @Nullable String failureMessage) {

    public static final String PENDING = "PENDING";
    public static final String COMPLETED = "COMPLETED";
    public static final String FAILED = "FAILED";

    public boolean isCompleted() {
        return COMPLETED.equals(status);
    }

    public boolean isFailed() {
        return FAILED.equals(status);
    }
}
