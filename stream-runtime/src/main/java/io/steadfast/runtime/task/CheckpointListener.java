package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.TaskId;

/**
 * Told when a task has taken its part of a checkpoint. Called on the task thread right after the snapshot was
 * written: implementations must hand the snapshot off (upload on another thread) and return at once.
 */
@FunctionalInterface
public interface CheckpointListener {

    CheckpointListener NONE = (task, checkpointId, snapshot, syncNanos) -> { };

    /**
     * @param syncNanos how long the task thread spent aligning nothing else and writing the snapshot
     */
    void onSnapshot(TaskId task, long checkpointId, OperatorSnapshot snapshot, long syncNanos);
}
