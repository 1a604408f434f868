package io.steadfast.router.checkpoint;

/** Why a checkpoint failed; the same names as the checkpoint-service's, so records and metrics group by them. */
public enum CheckpointFailureReason {
    /** Not every task acknowledged within {@code steadfast.router.checkpoint.timeout}. */
    TIMEOUT,
    /** A task declined (or its host could not be told to start the checkpoint). */
    TASK_FAILED,
    /** A host could not store a snapshot. */
    STORE_UNAVAILABLE,
    /** The topology was cancelled or is being recovered. */
    CANCELLED;

    /** The reason a host gave in a nack: its leading word if it names a reason, else TASK_FAILED. */
    public static CheckpointFailureReason fromNack(String reason) {
        for (CheckpointFailureReason candidate : values()) {
            if (reason != null && reason.startsWith(candidate.name())) {
                return candidate;
            }
        }
        return TASK_FAILED;
    }
}
