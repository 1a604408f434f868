package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;
import java.util.Map;

/**
 * Tells the router's checkpoint coordinator that a task's snapshot is stored (ack) or could not be (nack).
 * Implementations must not throw: a report that cannot be delivered is logged, and the checkpoint times out.
 */
public interface CheckpointReporter {

    void acknowledge(TaskId task, long checkpointId, SnapshotAck ack);

    /** Acks the stored snapshots of several tasks of one topology for one checkpoint; by default one by one. */
    default void acknowledgeAll(long checkpointId, Map<TaskId, SnapshotAck> acks) {
        acks.forEach((task, ack) -> acknowledge(task, checkpointId, ack));
    }

    void decline(TaskId task, long checkpointId, String reason);

    /**
     * Statistics of a stored snapshot.
     *
     * @param sizeBytes its size
     * @param syncMillis time on the task thread
     * @param asyncMillis time from the snapshot until it was stored
     */
    record SnapshotAck(long sizeBytes, long syncMillis, long asyncMillis) {
    }
}
