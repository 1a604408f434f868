package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.TaskId;

/**
 * Told when a task has taken its part of a checkpoint. Called on the host's snapshot-writer thread once the
 * snapshot is encoded (the task thread only detached the state and has long moved on): implementations hand
 * the bytes to an uploader and return soon, since other snapshots wait behind them.
 */
@FunctionalInterface
public interface CheckpointListener {

    CheckpointListener NONE = (task, incarnation, checkpointId, snapshot, syncNanos) -> { };

    /**
     * @param incarnation the incarnation of the copy of the task that took the snapshot (see
     *                    {@code TaskPlacement#incarnationOf}): the checkpoint-service and the router refuse the
     *                    snapshot of a copy that a newer incarnation has replaced
     * @param syncNanos   how long the task thread paused for the checkpoint (detaching state, sending barriers)
     */
    void onSnapshot(TaskId task, int incarnation, long checkpointId, OperatorSnapshot snapshot, long syncNanos);

    /** This listener as one copy of a task reports to it: the task and its incarnation are fixed when it is made. */
    default OfTask of(TaskId task, int incarnation) {
        return (checkpointId, snapshot, syncNanos) -> onSnapshot(task, incarnation, checkpointId, snapshot, syncNanos);
    }

    /**
     * What a {@link StreamTask} calls: the host binds its task and incarnation ({@link #of}), since a task does not
     * know which incarnation of itself it is. Same thread and duty as {@link CheckpointListener#onSnapshot}.
     */
    @FunctionalInterface
    interface OfTask {

        OfTask NONE = (checkpointId, snapshot, syncNanos) -> { };

        void onSnapshot(long checkpointId, OperatorSnapshot snapshot, long syncNanos);
    }
}
