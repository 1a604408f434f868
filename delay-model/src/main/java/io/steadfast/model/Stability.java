package io.steadfast.model;

/**
 * Whether a task's queueing model gives a usable number, by its utilisation ρ = λ · E[S].
 */
public enum Stability {

    /** ρ below the near-saturation bound: the queue is short and the model's wait is a fair estimate. */
    STABLE,

    /**
     * ρ at or above the near-saturation bound ({@value #DEFAULT_NEAR_SATURATION} by default) but below 1: the wait
     * grows as 1 / (1 − ρ), so a small change of rate moves it a lot, and the approximations' error grows with it.
     * The number is given, but it is fragile.
     */
    NEAR_SATURATION,

    /** ρ ≥ 1: the task takes in records faster than it serves them, the queue grows without bound; no wait. */
    UNSTABLE;

    /** The utilisation from which a task is {@link #NEAR_SATURATION} unless a model is given another. */
    public static final double DEFAULT_NEAR_SATURATION = 0.9;

    /** The stability of a task at {@code utilisation}, near saturation from {@code nearSaturation} on. */
    public static Stability of(double utilisation, double nearSaturation) {
        if (utilisation >= 1) {
            return UNSTABLE;
        }
        return utilisation >= nearSaturation ? NEAR_SATURATION : STABLE;
    }

    /** @throws IllegalArgumentException unless {@code 0 < nearSaturation <= 1} */
    static double requireBound(double nearSaturation) {
        if (!(nearSaturation > 0 && nearSaturation <= 1)) {
            throw new IllegalArgumentException("nearSaturation must be in (0, 1], was " + nearSaturation);
        }
        return nearSaturation;
    }
}
