package io.steadfast.checkpoint.checkpoint;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A checkpoint request that cannot be carried out; the reason says why (and maps to an HTTP status). */
public class CheckpointRejectedException extends RuntimeException {

    /** Why a request was rejected. */
    public enum Reason {
        /** No record of that topology and checkpoint id. */
        NOT_FOUND,
        /** A record with that topology and checkpoint id exists. */
        ALREADY_EXISTS,
        /** The checkpoint already completed or failed. */
        NOT_PENDING,
        /** Completion asked for while tasks have not acknowledged. */
        MISSING_ACKS,
        /** A task acknowledged, or completion was asked for, without the task's snapshot stored. */
        MISSING_SNAPSHOTS,
        /** An ack states another size than the stored snapshot's. */
        SIZE_MISMATCH,
        /** A task that the checkpoint does not expect. */
        UNEXPECTED_TASK,
        /**
         * A snapshot uploaded by an older copy of a task than the incarnation the checkpoint expects of it: a newer
         * copy of the task took over (the uploader was frozen, or cut off, and declared dead meanwhile).
         */
        SUPERSEDED_INCARNATION,
        /**
         * A snapshot uploaded by a newer copy of a task than the incarnation the checkpoint expects of it: the task was
         * recovered after the checkpoint was triggered, and its new copy takes part in later checkpoints only.
         */
        NEWER_INCARNATION
    }

    private final Reason reason;
    private final TopologyId topology;
    private final @Nullable CheckpointId checkpointId;
    private final List<TaskId> tasks;

    public CheckpointRejectedException(Reason reason, TopologyId topology, @Nullable CheckpointId checkpointId,
            List<TaskId> tasks, String message) {
        super(message);
        this.reason = reason;
        this.topology = topology;
        this.checkpointId = checkpointId;
        this.tasks = List.copyOf(tasks);
    }

    public Reason reason() {
        return reason;
    }

    public TopologyId topology() {
        return topology;
    }

    public @Nullable CheckpointId checkpointId() {
        return checkpointId;
    }

    /** The tasks the rejection is about, if any. */
    public List<TaskId> tasks() {
        return tasks;
    }
}
