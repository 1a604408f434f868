package io.steadfast.model;

/**
 * The M/M/1 queue: Poisson arrivals, exponential service, one server.
 *
 * <pre>
 *   ρ   = λ · E[S]                      (μ = 1 / E[S])
 *   W_q = ρ / (μ − λ) = ρ · E[S] / (1 − ρ)                (records one by one)
 *   W_q = ρ / (1 − ρ) · b · E[S] + (b − 1) / 2 · E[S]      (frames of b records, as in {@link KingmanGG1})
 *   W   = W_q + E[S]
 * </pre>
 *
 * Exact for its assumptions, and the simplest baseline; it ignores the measured variability ({@link
 * TaskLoad#arrivalScv()}, {@link TaskLoad#serviceScv()}), which {@link KingmanGG1} takes into account. Stops
 * holding where {@link KingmanGG1} does (ρ near 1, bursty arrivals).
 */
public final class MM1 implements QueueingModel {

    private final double nearSaturation;

    /** Near saturation from ρ = {@value Stability#DEFAULT_NEAR_SATURATION}. */
    public MM1() {
        this(Stability.DEFAULT_NEAR_SATURATION);
    }

    /** @param nearSaturation the utilisation from which a task is flagged {@link Stability#NEAR_SATURATION} */
    public MM1(double nearSaturation) {
        this.nearSaturation = Stability.requireBound(nearSaturation);
    }

    @Override
    public String name() {
        return "M/M/1";
    }

    @Override
    public TaskDelay delay(TaskLoad load) {
        return TaskDelay.singleServer(load, 1, nearSaturation);
    }
}
