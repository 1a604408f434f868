package io.steadfast.model;

import io.steadfast.runtime.plan.TaskId;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The measured (or assumed) load of one task, the input of its queueing model and of its recovery.
 *
 * <p>Rates are per record. Records arrive a frame at a time, though (for a source, a poll at a time): a frame of
 * {@code recordsPerFrame} records is one arrival of the queue, served in {@code recordsPerFrame} times E[S], and a
 * record also waits for those before it in its frame.
 *
 * @param task the task
 * @param arrivalPerSecond λ, the records it takes in per second; for a source, the records it emits per second
 * @param serviceSecondsPerRecord E[S], the mean time it is busy per record (busy time / records); its service
 *                                rate is μ = 1 / E[S]
 * @param arrivalScv c_a², the squared coefficient of variation of the times between arrivals of frames: 1 for
 *                   Poisson arrivals, 0 for evenly spaced ones, above 1 for bursts
 * @param serviceScv c_s², the squared coefficient of variation of a frame's service time: 1 for exponential, 0
 *                   for a constant time
 * @param queuedRecords the records waiting in its input queue when measured; compared with the model through
 *                      Little's law ({@link #measuredWaitSeconds()})
 * @param state what a recovery of it restores and replays
 * @param recordsPerFrame b, the mean records per arriving frame (input frames per second over records per second;
 *                        for a source, per poll that returned records); 1 when each record arrives on its own
 */
public record TaskLoad(TaskId task, double arrivalPerSecond, double serviceSecondsPerRecord, double arrivalScv,
                       double serviceScv, long queuedRecords, TaskState state, double recordsPerFrame) {

    public TaskLoad {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(state, "state of " + task);
        String owner = "TaskLoad of " + task;
        Finite.atLeastZero(owner, "arrivalPerSecond", arrivalPerSecond);
        Finite.atLeastZero(owner, "serviceSecondsPerRecord", serviceSecondsPerRecord);
        Finite.atLeastZero(owner, "arrivalScv", arrivalScv);
        Finite.atLeastZero(owner, "serviceScv", serviceScv);
        Finite.atLeastZero(owner, "queuedRecords", queuedRecords);
        Finite.atLeastZero(owner, "recordsPerFrame", recordsPerFrame);
        if (recordsPerFrame < 1) {
            throw new IllegalArgumentException(owner + ": recordsPerFrame must be at least 1, was "
                    + recordsPerFrame);
        }
    }

    /** A load whose records arrive one by one. */
    public TaskLoad(TaskId task, double arrivalPerSecond, double serviceSecondsPerRecord, double arrivalScv,
                    double serviceScv, long queuedRecords, TaskState state) {
        this(task, arrivalPerSecond, serviceSecondsPerRecord, arrivalScv, serviceScv, queuedRecords, state, 1);
    }

    /**
     * A load with Poisson arrivals and exponential service (c_a² = c_s² = 1, the M/M/1 assumptions), nothing
     * queued, no state and nothing logged.
     */
    public static TaskLoad of(TaskId task, double arrivalPerSecond, double serviceSecondsPerRecord) {
        return new TaskLoad(task, arrivalPerSecond, serviceSecondsPerRecord, 1, 1, 0, TaskState.EMPTY);
    }

    /** This load with other squared coefficients of variation of arrivals and service. */
    public TaskLoad withScv(double newArrivalScv, double newServiceScv) {
        return new TaskLoad(task, arrivalPerSecond, serviceSecondsPerRecord, newArrivalScv, newServiceScv,
                queuedRecords, state, recordsPerFrame);
    }

    /** This load with another measured queue length. */
    public TaskLoad withQueuedRecords(long records) {
        return new TaskLoad(task, arrivalPerSecond, serviceSecondsPerRecord, arrivalScv, serviceScv, records, state,
                recordsPerFrame);
    }

    /** This load with another state. */
    public TaskLoad withState(TaskState newState) {
        return new TaskLoad(task, arrivalPerSecond, serviceSecondsPerRecord, arrivalScv, serviceScv, queuedRecords,
                newState, recordsPerFrame);
    }

    /**
     * This load with records arriving {@code records} at a time on average; from measured rates, records per second
     * over frames per second (at least 1; a task that took no frame in keeps 1).
     */
    public TaskLoad withRecordsPerFrame(double records) {
        return new TaskLoad(task, arrivalPerSecond, serviceSecondsPerRecord, arrivalScv, serviceScv, queuedRecords,
                state, records);
    }

    /** b from measured rates: records per second over frames per second, 1 when no frame or fewer records came. */
    public static double recordsPerFrame(double recordsPerSecond, double framesPerSecond) {
        return framesPerSecond > 0 ? Math.max(1, recordsPerSecond / framesPerSecond) : 1;
    }

    /** ρ = λ · E[S], the share of time the task is busy; 1 or more means it cannot keep up. */
    public double utilisation() {
        return arrivalPerSecond * serviceSecondsPerRecord;
    }

    /**
     * The mean wait in the queue that the measured queue implies by Little's law, L_q / λ, to hold against the
     * model's wait; empty when nothing arrives.
     */
    public OptionalDouble measuredWaitSeconds() {
        return arrivalPerSecond == 0 ? OptionalDouble.empty() : OptionalDouble.of(queuedRecords / arrivalPerSecond);
    }
}
