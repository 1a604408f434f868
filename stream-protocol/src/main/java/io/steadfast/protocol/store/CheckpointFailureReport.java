package io.steadfast.protocol.store;

import org.jspecify.annotations.Nullable;

/**
 * Body of the checkpoint-service's {@code POST /api/v1/checkpoints/{topology}/{checkpointId}/fail}: the checkpoint
 * failed.
 *
 * @param reason  why, one of {@code TIMEOUT}, {@code TASK_FAILED}, {@code STORE_UNAVAILABLE} or {@code CANCELLED}
 *                (required): the router and the service each name these in an enum of their own, and metrics and the
 *                dashboard group failures by them
 * @param message what failed, for the operator reading the checkpoint (empty if left out)
 */
public record CheckpointFailureReport(@Nullable String reason, @Nullable String message) {
}
