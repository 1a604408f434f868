package io.steadfast.protocol.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of the router's {@code POST .../checkpoints/{checkpointId}/acks/batch}: one host's acks of several tasks'
 * snapshots, taken at one barrier.
 *
 * @param host the host the tasks run on
 * @param acks one per task
 */
public record CheckpointAckBatch(@NotNull HostId host, @NotEmpty List<@Valid @NotNull TaskAck> acks) {

    /** One task's ack in a batch, as in {@link CheckpointAck}. */
    public record TaskAck(@NotNull TaskId task, @Nullable @PositiveOrZero Integer incarnation,
                          @PositiveOrZero long sizeBytes, @PositiveOrZero long syncMillis,
                          @PositiveOrZero long asyncMillis) {
    }
}
