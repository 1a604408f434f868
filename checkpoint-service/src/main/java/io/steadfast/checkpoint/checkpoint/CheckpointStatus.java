package io.steadfast.checkpoint.checkpoint;

/** Where a checkpoint is in its life: PENDING until it COMPLETED or FAILED; both are final. */
public enum CheckpointStatus {
    PENDING, COMPLETED, FAILED
}
