package io.steadfast.runtime.host;

import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.task.TaskStatus;

/**
 * A point-in-time view of one task for reports and REST.
 *
 * @param task the task id, as text
 * @param type the operator type
 * @param status its lifecycle state
 * @param recordsIn records taken in (events from inputs, or events a source emitted)
 * @param recordsOut events emitted
 * @param queuedFrames input frames waiting
 * @param malformedFrames input frames dropped because they did not decode
 * @param backpressuredMillis time spent waiting for output credit
 * @param failure the failure text, or null
 */
public record TaskReport(String task, String type, TaskStatus status, long recordsIn, long recordsOut,
                         int queuedFrames, long malformedFrames, long backpressuredMillis, String failure) {

    static TaskReport of(StreamTask task) {
        return new TaskReport(task.id().toString(), task.operatorType(), task.status(), task.metrics().recordsIn(),
                task.metrics().recordsOut(), task.queuedFrames(), task.metrics().malformedFrames(),
                task.metrics().backpressuredNanos() / 1_000_000, task.failure());
    }
}
