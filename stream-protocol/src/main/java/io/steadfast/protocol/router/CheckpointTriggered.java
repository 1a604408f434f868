package io.steadfast.protocol.router;

import io.steadfast.runtime.plan.CheckpointId;

/**
 * The router's answer to {@code POST /api/v1/topologies/{id}/checkpoints}: the checkpoint it started.
 *
 * @param checkpointId its id
 */
public record CheckpointTriggered(CheckpointId checkpointId) {
}
