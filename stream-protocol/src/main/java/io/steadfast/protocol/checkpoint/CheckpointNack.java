package io.steadfast.protocol.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * Body of the router's {@code POST .../checkpoints/{checkpointId}/nacks}: the task could not take its part.
 *
 * @param incarnation the copy of the task that declines (0 if left out)
 * @param reason      why, for the operator reading the checkpoint's failure
 */
public record CheckpointNack(@NotNull TaskId task, @NotNull HostId host, @Nullable Integer incarnation,
                           @NotBlank String reason) {
}
