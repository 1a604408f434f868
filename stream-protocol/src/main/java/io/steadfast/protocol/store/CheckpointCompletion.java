package io.steadfast.protocol.store;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of the checkpoint-service's {@code POST /api/v1/checkpoints/{topology}/{checkpointId}/complete}, optional:
 * the acks to record in the same write as the completion (one call instead of one per task).
 *
 * @param acks one per task that has not acknowledged yet (none if left out)
 */
public record CheckpointCompletion(@Nullable List<RecordedAck> acks) {
}
