package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;

/** A deployment asked to restore a task from a checkpoint whose snapshot cannot be had; the reason says why. */
public class SnapshotUnavailableException extends RuntimeException {

    /** Why the snapshot cannot be had. */
    public enum Reason {
        /** The store answered but has no snapshot of the task for that checkpoint, or an unreadable one. */
        MISSING,
        /** The store could not be reached or refused the call. */
        STORE_UNAVAILABLE
    }

    private final TaskId task;
    private final long checkpointId;
    private final Reason reason;

    public SnapshotUnavailableException(TaskId task, long checkpointId, Reason reason, String message,
                                        Throwable cause) {
        super(message, cause);
        this.task = task;
        this.checkpointId = checkpointId;
        this.reason = reason;
    }

    public TaskId task() {
        return task;
    }

    public long checkpointId() {
        return checkpointId;
    }

    public Reason reason() {
        return reason;
    }
}
