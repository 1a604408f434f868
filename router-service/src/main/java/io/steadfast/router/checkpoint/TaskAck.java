package io.steadfast.router.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;

/**
 * A task's acknowledgement of a checkpoint, as its host reported it.
 *
 * @param task the task
 * @param host the host it ran on
 * @param sizeBytes size of its stored snapshot
 * @param syncMillis time on the task thread
 * @param asyncMillis time until the snapshot was stored
 */
public record TaskAck(TaskId task, HostId host, long sizeBytes, long syncMillis, long asyncMillis) {
}
