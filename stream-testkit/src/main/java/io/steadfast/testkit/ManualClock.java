package io.steadfast.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A {@link Clock} in UTC that only moves when a test says so, for code that reads the time (pacing sources,
 * timeouts, failure detection, cached answers). Thread-safe: a test thread may advance it while the code under
 * test reads it from its own threads.
 */
public final class ManualClock extends Clock {

    private volatile Instant now;

    public ManualClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /** A clock at the epoch. */
    public static ManualClock atEpoch() {
        return new ManualClock(Instant.EPOCH);
    }

    /** Moves the clock forward; a negative duration is refused, since clocks here never go back. */
    public synchronized ManualClock advance(Duration duration) {
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

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** This clock for UTC; another zone is refused, since a second clock would not move with this one. */
    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.normalized().equals(zone.normalized())) {
            throw new UnsupportedOperationException("a manual clock runs in UTC only, was asked for " + zone);
        }
        return this;
    }
}
