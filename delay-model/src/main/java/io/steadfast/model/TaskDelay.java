package io.steadfast.model;

import io.steadfast.runtime.plan.TaskId;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What a queueing model predicts for one task: how busy it is, how long a record waits in its queue and how long
 * it is served.
 *
 * @param task the task
 * @param utilisation ρ = λ · E[S]
 * @param waitSeconds W_q, the mean wait in the queue, for the frame and then within it; empty when the task is {@link Stability#UNSTABLE} (its queue
 *                    grows without bound, so no finite mean exists)
 * @param serviceSeconds E[S]
 * @param stability whether the wait can be trusted
 */
public record TaskDelay(TaskId task, double utilisation, OptionalDouble waitSeconds, double serviceSeconds,
                        Stability stability) {

    public TaskDelay {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(waitSeconds, "waitSeconds");
        Objects.requireNonNull(stability, "stability");
        if (waitSeconds.isPresent() == (stability == Stability.UNSTABLE)) {
            throw new IllegalArgumentException("task " + task + ": a wait is given exactly when the task is not"
                    + " UNSTABLE; was " + waitSeconds + " at " + stability);
        }
    }

    /**
     * The delay of a single-server queue of frames of b records, each served in b · E[S]: a record waits
     * {@code variability · ρ / (1 − ρ) · b · E[S]} for its frame to be taken up (variability 1 for M/M/1, (c_a² + c_s²) / 2
     * for Kingman's G/G/1 approximation), then {@code (b − 1) / 2 · E[S]} on average for the records before it in
     * its frame. With b = 1 it is the queue of records.
     */
    static TaskDelay singleServer(TaskLoad load, double variability, double nearSaturation) {
        double rho = load.utilisation();
        Stability stability = Stability.of(rho, nearSaturation);
        double b = load.recordsPerFrame();
        double service = load.serviceSecondsPerRecord();
        OptionalDouble wait = stability == Stability.UNSTABLE ? OptionalDouble.empty()
                : OptionalDouble.of(variability * rho / (1 - rho) * b * service + (b - 1) / 2 * service);
        return new TaskDelay(load.task(), rho, wait, load.serviceSecondsPerRecord(), stability);
    }

    /** W = W_q + E[S], the mean time a record spends in the task; empty when it is {@link Stability#UNSTABLE}. */
    public OptionalDouble sojournSeconds() {
        return waitSeconds.isPresent() ? OptionalDouble.of(waitSeconds.getAsDouble() + serviceSeconds)
                : OptionalDouble.empty();
    }

    /** Whether the task cannot keep up (ρ ≥ 1). */
    public boolean isUnstable() {
        return stability == Stability.UNSTABLE;
    }
}
