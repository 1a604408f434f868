package io.steadfast.runtime.host;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
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
 * @param throughput what the task took in and emitted
 * @param input the health of its input: frames waiting, dropped, and time spent waiting for credit
 * @param failure the failure text, or null
 * @param catchUp how the task caught up after it was recovered in place, or null (not recovered in place, or
 *                not caught up yet)
 * @param incarnation which incarnation of the task this is (see {@link TaskPlacement}); the router takes a failure
 *                    as that of the task it placed only if the incarnations agree
 */
public record TaskReport(String task, String type, TaskStatus status, @JsonUnwrapped Throughput throughput,
                         @JsonUnwrapped InputHealth input, String failure, RecoveryCatchUp catchUp,
                         Integer incarnation) {

    /**
     * What a task took in and emitted; flat in the JSON form.
     *
     * @param recordsIn records taken in (events from inputs, or events a source emitted)
     * @param recordsOut events emitted
     * @param recordsInPerSecond records taken in per second, over the last half second or more
     * @param recordsOutPerSecond events emitted per second, over the same window
     */
    public record Throughput(long recordsIn, long recordsOut, double recordsInPerSecond, double recordsOutPerSecond) {

        /** A count of records taken in, with nothing emitted and no rates. */
        public static Throughput takenIn(long recordsIn) {
            return new Throughput(recordsIn, 0, 0, 0);
        }
    }

    /**
     * The health of a task's input; flat in the JSON form.
     *
     * @param queuedFrames input frames waiting
     * @param malformedFrames input frames dropped because they did not decode
     * @param backpressuredMillis time spent waiting for output credit
     */
    public record InputHealth(int queuedFrames, long malformedFrames, long backpressuredMillis) {

        /** Nothing waiting, nothing dropped, no time waited. */
        public static final InputHealth IDLE = new InputHealth(0, 0, 0);
    }

    public TaskReport {
        throughput = throughput == null ? Throughput.takenIn(0) : throughput;
        input = input == null ? InputHealth.IDLE : input;
        incarnation = incarnation == null ? 0 : incarnation; // left out by a report of a first incarnation
    }

    /** A report of a first incarnation. */
    public TaskReport(String task, String type, TaskStatus status, Throughput throughput, InputHealth input,
                      String failure, RecoveryCatchUp catchUp) {
        this(task, type, status, throughput, input, failure, catchUp, 0);
    }

    public long recordsIn() {
        return throughput.recordsIn();
    }

    public long recordsOut() {
        return throughput.recordsOut();
    }

    public double recordsInPerSecond() {
        return throughput.recordsInPerSecond();
    }

    public double recordsOutPerSecond() {
        return throughput.recordsOutPerSecond();
    }

    public int queuedFrames() {
        return input.queuedFrames();
    }

    public long malformedFrames() {
        return input.malformedFrames();
    }

    public long backpressuredMillis() {
        return input.backpressuredMillis();
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
        return new TaskReport(task.id().toString(), task.operatorType(), hung ? TaskStatus.FAILED : task.status(),
                new Throughput(in, out, Math.round(rate.inPerSecond()), Math.round(rate.outPerSecond())),
                new InputHealth(task.queuedFrames(), task.metrics().malformedFrames(),
                        task.metrics().backpressuredNanos() / 1_000_000),
                failure, task.caughtUp(), incarnation);
    }
}
