package io.steadfast.router.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;

/**
 * A task's acknowledgement of a checkpoint, as its host reported it.
 *
 * @param task the task
 * @param host the host it ran on
 * @param incarnation the incarnation of the copy of the task that took the snapshot (0 from a host that does not say)
 * @param sizeBytes size of its stored snapshot
 * @param syncMillis time on the task thread
 * @param asyncMillis time until the snapshot was stored
 */
public record TaskAck(TaskId task, HostId host, int incarnation, long sizeBytes, long syncMillis, long asyncMillis) {
}
