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

    /** The task's copy of {@code incarnation} could not take its part in the checkpoint, for {@code reason}. */
    void decline(TaskId task, int incarnation, long checkpointId, String reason);

    /**
     * A stored snapshot: which copy of the task took it, and statistics.
     *
     * @param incarnation the incarnation of the copy of the task that took it: the router takes the ack of the copy
     *                    that ran when it triggered the checkpoint only
     * @param sizeBytes its size
     * @param syncMillis time on the task thread
     * @param asyncMillis time from the snapshot until it was stored
     */
    record SnapshotAck(int incarnation, long sizeBytes, long syncMillis, long asyncMillis) {
    }
}
