package io.steadfast.model;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One step of a predicted recovery, with the numbers that produced it.
 *
 * @param name {@value #DETECTION}, {@value #RESTART}, {@value #RESTORE} or {@value #CATCH_UP}
 * @param seconds how long the step takes; empty if it never ends at the given rates (a catch-up without spare
 *                capacity)
 * @param explanation one line: the formula with its numbers
 */
public record Term(String name, OptionalDouble seconds, String explanation) {

    /** From the failure until the router declares the host dead. */
    public static final String DETECTION = "detection";
    /** Redeploying the tasks that recover. */
    public static final String RESTART = "restart";
    /** Fetching their state from the latest completed checkpoint. */
    public static final String RESTORE = "restore";
    /** Processing again what came since the checkpoint while new input keeps coming, until up to date. */
    public static final String CATCH_UP = "catch-up";

    public Term {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(seconds, "seconds");
        Objects.requireNonNull(explanation, "explanation");
    }

    static Term of(String name, double seconds, String explanation) {
        return new Term(name, OptionalDouble.of(seconds), explanation);
    }

    static Term never(String name, String explanation) {
        return new Term(name, OptionalDouble.empty(), explanation);
    }
}
