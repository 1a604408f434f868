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
     * What a task took in and emitted, and how long its records stayed; flat in the JSON form.
     *
     * @param recordsIn records taken in (events from inputs, or events a source emitted)
     * @param recordsOut events emitted
     * @param recordsInPerSecond records taken in per second, over the last half second or more
     * @param recordsOutPerSecond events emitted per second, over the same window
     * @param latencyMillis the mean time the records taken in over that window spent in the task, from reaching its
     *                      host to processed (queueing, alignment and processing; for a source, producing them), or
     *                      null if it took none
     * @param busyFraction the share of that window the task's thread spent processing, 0 to 1
     * @param framesInPerSecond input frames taken per second over that window (for a source, polls that returned
     *                          events); with the record rate, how many records arrive together. Null from hosts that
     *                          do not count them
     * @param outputWaitMillis the mean time the records it sent over that window waited in their output frames, from
     *                         their emission to the frame leaving (batching: a linger, or a frame filling up); null if
     *                         it sent none, or its host does not measure it
     */
    public record Throughput(long recordsIn, long recordsOut, double recordsInPerSecond, double recordsOutPerSecond,
                             Double latencyMillis, Double busyFraction, Double framesInPerSecond,
                             Double outputWaitMillis) {

        public Throughput {
            busyFraction = busyFraction == null ? 0.0 : busyFraction; // left out by hosts that do not measure it
        }

        /** Counts, rates and the task's own timings, with no batching figures. */
        public Throughput(long recordsIn, long recordsOut, double recordsInPerSecond, double recordsOutPerSecond,
                          Double latencyMillis, Double busyFraction) {
            this(recordsIn, recordsOut, recordsInPerSecond, recordsOutPerSecond, latencyMillis, busyFraction, null,
                    null);
        }

        /** Counts and rates, with no timings. */
        public Throughput(long recordsIn, long recordsOut, double recordsInPerSecond, double recordsOutPerSecond) {
            this(recordsIn, recordsOut, recordsInPerSecond, recordsOutPerSecond, null, 0.0);
        }

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

    /** See {@link Throughput#latencyMillis()}; null if the task took nothing in over the window. */
    public Double latencyMillis() {
        return throughput.latencyMillis();
    }

    public Double busyFraction() {
        return throughput.busyFraction();
    }

    /** See {@link Throughput#framesInPerSecond()}; null from a host that does not count them. */
    public Double framesInPerSecond() {
        return throughput.framesInPerSecond();
    }

    /** See {@link Throughput#outputWaitMillis()}; null if the task sent nothing over the window. */
    public Double outputWaitMillis() {
        return throughput.outputWaitMillis();
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
        TaskRates.Counters counters = TaskRates.Counters.of(task.metrics());
        TaskRates.Rates rate = rates.update(task.id().toString(), nowNanos, counters);
        long stalled = task.stalledNanos(nowNanos);
        boolean hung = stalled > STALLED_AFTER.toNanos();
        String failure = hung ? "stalled: its thread has not come back from operator code for "
                + TimeUnit.NANOSECONDS.toSeconds(stalled) + " s (an endless loop, a deadlock or a blocking call in "
                + task.operatorType() + "?); treated as failed" : task.failure();
        return new TaskReport(task.id().toString(), task.operatorType(), hung ? TaskStatus.FAILED : task.status(),
                new Throughput(counters.recordsIn(), counters.recordsOut(), Math.round(rate.inPerSecond()),
                        Math.round(rate.outPerSecond()), rate.latencyMillis(), rate.busyFraction(),
                        rate.framesInPerSecond(), rate.outputWaitMillis()),
                new InputHealth(task.queuedFrames(), task.metrics().malformedFrames(),
                        task.metrics().backpressuredNanos() / 1_000_000),
                failure, task.caughtUp(), incarnation);
    }
}
