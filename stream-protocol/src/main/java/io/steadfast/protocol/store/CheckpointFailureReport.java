package io.steadfast.protocol.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of the checkpoint-service's {@code POST /api/v1/checkpoints/{topology}/{checkpointId}/fail}: the checkpoint
 * failed.
 *
 * @param reason  why, one of {@code TIMEOUT}, {@code TASK_FAILED}, {@code STORE_UNAVAILABLE} or {@code CANCELLED}
 *                (required): the router and the service each name these in an enum of their own, and metrics and the
 *                dashboard group failures by them
 * @param message what failed, for the operator reading the checkpoint (empty if left out)
 * @param acks    the acks the coordinator had taken before it failed, to record with the failure, so that the
 *                checkpoint shows which tasks acknowledged and which did not (none if left out)
 */
public record CheckpointFailureReport(@Nullable String reason, @Nullable String message,
                                      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<RecordedAck> acks) {

    /** A failure with no acks to record. */
    public CheckpointFailureReport(@Nullable String reason, @Nullable String message) {
        this(reason, message, null);
    }
}
