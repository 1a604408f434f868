package io.steadfast.runtime.host;

import io.steadfast.runtime.task.RecoveryCatchUp;
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
 * @param recordsInPerSecond records taken in per second, over the last half second or more
 * @param recordsOutPerSecond events emitted per second, over the same window
 * @param queuedFrames input frames waiting
 * @param malformedFrames input frames dropped because they did not decode
 * @param backpressuredMillis time spent waiting for output credit
 * @param failure the failure text, or null
 * @param catchUp how the task caught up after it was recovered in place, or null (not recovered in place, or
 *                not caught up yet)
 */
public record TaskReport(String task, String type, TaskStatus status, long recordsIn, long recordsOut,
                         double recordsInPerSecond, double recordsOutPerSecond, int queuedFrames,
                         long malformedFrames, long backpressuredMillis, String failure,
                         RecoveryCatchUp catchUp) {

    /** A report of a task that was not recovered in place. */
    public TaskReport(String task, String type, TaskStatus status, long recordsIn, long recordsOut,
                      double recordsInPerSecond, double recordsOutPerSecond, int queuedFrames,
                      long malformedFrames, long backpressuredMillis, String failure) {
        this(task, type, status, recordsIn, recordsOut, recordsInPerSecond, recordsOutPerSecond, queuedFrames,
                malformedFrames, backpressuredMillis, failure, null);
    }

    static TaskReport of(StreamTask task, TaskRates rates, long nowNanos) {
        long in = task.metrics().recordsIn();
        long out = task.metrics().recordsOut();
        TaskRates.Rates rate = rates.update(task.id().toString(), nowNanos, in, out);
        return new TaskReport(task.id().toString(), task.operatorType(), task.status(), in, out,
                Math.round(rate.inPerSecond()), Math.round(rate.outPerSecond()), task.queuedFrames(),
                task.metrics().malformedFrames(), task.metrics().backpressuredNanos() / 1_000_000, task.failure(),
                task.caughtUp());
    }
}
