package io.steadfast.router.checkpoint;

import java.time.Instant;

/**
 * The latest checkpoint a coordinator completed.
 *
 * @param checkpointId its id
 * @param epoch the deployment epoch it was taken in
 * @param sinkRecordsAtTrigger records the sinks had taken in (in that epoch) when it was triggered
 * @param completedAt when it completed
 */
public record CompletedCheckpoint(long checkpointId, int epoch, long sinkRecordsAtTrigger, Instant completedAt) {
}
