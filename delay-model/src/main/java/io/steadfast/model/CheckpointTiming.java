package io.steadfast.model;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * When the latest completed checkpoint was, which decides how much input a recovery must process again.
 *
 * @param intervalSeconds the time between checkpoint triggers
 * @param durationSeconds the time from a trigger until the checkpoint completes
 * @param sinceCompletedSeconds the measured time from the latest completed checkpoint's trigger to the failure
 *                              (its barriers cut the input there), if the failure has happened; empty when
 *                              predicting ahead of one
 */
public record CheckpointTiming(double intervalSeconds, double durationSeconds, OptionalDouble sinceCompletedSeconds) {

    public CheckpointTiming {
        Finite.positive("CheckpointTiming", "intervalSeconds", intervalSeconds);
        Finite.atLeastZero("CheckpointTiming", "durationSeconds", durationSeconds);
        Objects.requireNonNull(sinceCompletedSeconds, "sinceCompletedSeconds");
        sinceCompletedSeconds.ifPresent(s -> Finite.atLeastZero("CheckpointTiming", "sinceCompletedSeconds", s));
    }

    /** For a failure yet to come, at a random moment. */
    public static CheckpointTiming expected(double intervalSeconds, double durationSeconds) {
        return new CheckpointTiming(intervalSeconds, durationSeconds, OptionalDouble.empty());
    }

    /** For a failure that came {@code sinceCompletedSeconds} after the latest completed checkpoint's trigger. */
    public static CheckpointTiming measured(double intervalSeconds, double durationSeconds,
                                            double sinceCompletedSeconds) {
        return new CheckpointTiming(intervalSeconds, durationSeconds, OptionalDouble.of(sinceCompletedSeconds));
    }

    /**
     * The input, in seconds, since the cut of the checkpoint a recovery restores: the measured value, or else its
     * expectation for a failure at a random moment, interval / 2 + duration (the failure falls on average half an
     * interval after a trigger, and until that checkpoint completes the one before it is the latest).
     */
    public double ageAtFailureSeconds() {
        return sinceCompletedSeconds.orElse(intervalSeconds / 2 + durationSeconds);
    }

    /** How {@link #ageAtFailureSeconds()} was found, for an explanation. */
    String ageExplanation() {
        return sinceCompletedSeconds.isPresent() ? "measured"
                : "expected: interval " + Figures.seconds(intervalSeconds) + " / 2 + duration "
                + Figures.seconds(durationSeconds);
    }
}
