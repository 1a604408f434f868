package io.steadfast.protocol.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import org.jspecify.annotations.Nullable;

/**
 * Body of the router's {@code POST /api/v1/topologies/{id}/checkpoints/{checkpointId}/acks}: a host's ack of one
 * task's snapshot, taken by the copy of the task of {@code incarnation} (0 if left out); the router ignores an ack of
 * another copy than the one the checkpoint was triggered for.
 *
 * @param task        the task snapshotted
 * @param host        the host it runs on
 * @param sizeBytes   the snapshot's size
 * @param syncMillis  the synchronous part of taking it, on the task's thread
 * @param asyncMillis the asynchronous part: writing it to the checkpoint store
 */
public record CheckpointAck(@NotNull TaskId task, @NotNull HostId host, @Nullable @PositiveOrZero Integer incarnation,
                          @PositiveOrZero long sizeBytes, @PositiveOrZero long syncMillis,
                          @PositiveOrZero long asyncMillis) {
}
