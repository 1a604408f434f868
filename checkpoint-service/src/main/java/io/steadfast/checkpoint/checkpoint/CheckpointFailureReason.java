package io.steadfast.checkpoint.checkpoint;

/** Why a checkpoint failed; metrics and the dashboard group by it. */
public enum CheckpointFailureReason {
    /** Not every task acknowledged within the coordinator's timeout. */
    TIMEOUT,
    /** A task failed (or its host was lost) before it acknowledged. */
    TASK_FAILED,
    /** A snapshot could not be stored. */
    STORE_UNAVAILABLE,
    /** The topology was cancelled or the coordinator abandoned the checkpoint. */
    CANCELLED
}
