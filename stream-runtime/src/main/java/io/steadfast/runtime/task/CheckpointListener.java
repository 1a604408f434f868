package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.TaskId;

/**
 * Told when a task has taken its part of a checkpoint. Called on the host's snapshot-writer thread once the
 * snapshot is encoded (the task thread only detached the state and has long moved on): implementations hand
 * the bytes to an uploader and return soon, since other snapshots wait behind them.
 */
@FunctionalInterface
public interface CheckpointListener {

    CheckpointListener NONE = (task, checkpointId, snapshot, syncNanos) -> { };

    /**
     * @param syncNanos how long the task thread paused for the checkpoint (detaching state, sending barriers)
     */
    void onSnapshot(TaskId task, long checkpointId, OperatorSnapshot snapshot, long syncNanos);
}
