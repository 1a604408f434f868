package io.steadfast.protocol.store;

import io.steadfast.runtime.plan.TaskId;
import org.jspecify.annotations.Nullable;

/**
 * Body of the checkpoint-service's {@code PUT /api/v1/checkpoints/{topology}/{checkpointId}/acks}, and one of the
 * acks a {@link CheckpointCompletion} records: a task acknowledged the checkpoint, its snapshot stored. The members
 * are nullable as read: the service answers a missing task with a problem that names it.
 *
 * @param task        the task (required)
 * @param sizeBytes   its snapshot's size; when given, it must be the size the service stored
 * @param syncMillis  the synchronous part of taking the snapshot, on the task's thread (0 if left out)
 * @param asyncMillis the asynchronous part, until the snapshot was stored (0 if left out)
 */
public record RecordedAck(@Nullable TaskId task, @Nullable Long sizeBytes, @Nullable Long syncMillis,
                          @Nullable Long asyncMillis) {
}
