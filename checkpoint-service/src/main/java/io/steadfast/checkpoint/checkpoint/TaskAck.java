package io.steadfast.checkpoint.checkpoint;

import io.steadfast.runtime.plan.TaskId;
import java.time.Instant;

/**
 * A task's acknowledgement of a checkpoint: its snapshot is stored.
 *
 * @param sizeBytes the stored snapshot's size
 * @param syncMillis time the task spent in the synchronous part (copying its state on the mailbox thread)
 * @param asyncMillis time of the asynchronous part (serialising and uploading)
 */
public record TaskAck(TaskId task, long sizeBytes, Instant ackedAt, long syncMillis, long asyncMillis) {
}
