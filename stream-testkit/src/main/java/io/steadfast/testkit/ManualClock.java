package io.steadfast.testkit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * An {@link InstantSource} that only moves when a test says so, for sources that pace by the clock. Not
 * thread-safe: use it from one test thread (the task thread of a synchronous driver).
 */
public final class ManualClock implements InstantSource {

    private Instant now;

    public ManualClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /** A clock at the epoch. */
    public static ManualClock atEpoch() {
        return new ManualClock(Instant.EPOCH);
    }

    /** Moves the clock forward; a negative duration is refused, since clocks here never go back. */
    public ManualClock advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a manual clock only moves forward, was asked to move " + duration);
        }
        now = now.plus(duration);
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
