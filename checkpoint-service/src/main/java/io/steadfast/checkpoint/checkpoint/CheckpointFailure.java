package io.steadfast.checkpoint.checkpoint;

import java.util.Objects;

/** Why a checkpoint failed, with the coordinator's explanation. */
public record CheckpointFailure(CheckpointFailureReason reason, String message) {

    public CheckpointFailure {
        Objects.requireNonNull(reason, "reason");
        message = message == null ? "" : message;
    }
}
