package io.steadfast.runtime.host;

import io.steadfast.runtime.recovery.RecoveryCatchUp;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.task.TaskStatus;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

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
 * @param incarnation which incarnation of the task this is (see {@link TaskPlacement}); the router takes a failure
 *                    as that of the task it placed only if the incarnations agree
 */
public record TaskReport(String task, String type, TaskStatus status, long recordsIn, long recordsOut,
                         double recordsInPerSecond, double recordsOutPerSecond, int queuedFrames,
                         long malformedFrames, long backpressuredMillis, String failure,
                         RecoveryCatchUp catchUp, Integer incarnation) {

    public TaskReport {
        incarnation = incarnation == null ? 0 : incarnation; // left out by a report of a first incarnation
    }

    /** A report of a first incarnation. */
    public TaskReport(String task, String type, TaskStatus status, long recordsIn, long recordsOut,
                      double recordsInPerSecond, double recordsOutPerSecond, int queuedFrames,
                      long malformedFrames, long backpressuredMillis, String failure, RecoveryCatchUp catchUp) {
        this(task, type, status, recordsIn, recordsOut, recordsInPerSecond, recordsOutPerSecond, queuedFrames,
                malformedFrames, backpressuredMillis, failure, catchUp, 0);
    }

    /** A report of a task that was not recovered in place. */
    public TaskReport(String task, String type, TaskStatus status, long recordsIn, long recordsOut,
                      double recordsInPerSecond, double recordsOutPerSecond, int queuedFrames,
                      long malformedFrames, long backpressuredMillis, String failure) {
        this(task, type, status, recordsIn, recordsOut, recordsInPerSecond, recordsOutPerSecond, queuedFrames,
                malformedFrames, backpressuredMillis, failure, null);
    }

    /**
     * How long a RUNNING task's thread may stay away from its loop before it is reported FAILED: longer than any restore
     * or snapshot copy takes on its thread, far shorter than an operator hung for good.
     */
    static final Duration STALLED_AFTER = Duration.ofSeconds(30);

    /** The report of {@code task}; one whose thread hangs ({@link #STALLED_AFTER}) is reported FAILED, saying so. */
    static TaskReport of(StreamTask task, int incarnation, TaskRates rates, long nowNanos) {
        long in = task.metrics().recordsIn();
        long out = task.metrics().recordsOut();
        TaskRates.Rates rate = rates.update(task.id().toString(), nowNanos, in, out);
        long stalled = task.stalledNanos(nowNanos);
        boolean hung = stalled > STALLED_AFTER.toNanos();
        String failure = hung ? "stalled: its thread has not come back from operator code for "
                + TimeUnit.NANOSECONDS.toSeconds(stalled) + " s (an endless loop, a deadlock or a blocking call in "
                + task.operatorType() + "?); treated as failed" : task.failure();
        return new TaskReport(task.id().toString(), task.operatorType(), hung ? TaskStatus.FAILED : task.status(), in,
                out, Math.round(rate.inPerSecond()), Math.round(rate.outPerSecond()), task.queuedFrames(),
                task.metrics().malformedFrames(), task.metrics().backpressuredNanos() / 1_000_000, failure,
                task.caughtUp(), incarnation);
    }
}
