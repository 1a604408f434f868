package io.steadfast.router.checkpoint;

import java.time.Duration;
import java.time.Instant;

/**
 * Decides when the next checkpoint of one topology is due: every {@code interval} after the last trigger, and
 * never while {@code maxConcurrent} checkpoints are pending (such a due trigger is skipped and counted; it fires
 * at the first tick after one completes). While the topology is not running, due triggers are skipped one interval
 * apart ({@link #skipIfDue}). Not thread-safe: owned by its coordinator.
 */
public final class CheckpointScheduler {

    /** What to do at a tick. */
    public enum Decision {
        /** Not due yet. */
        WAIT,
        /** Due, but too many are pending: skip. */
        SKIP,
        /** Trigger one now. */
        TRIGGER
    }

    private final Duration interval;
    private final int maxConcurrent;
    private Instant lastTrigger;
    private long skipped;
    private boolean skipping;

    /** @param start the first checkpoint is due one interval after this */
    public CheckpointScheduler(Duration interval, int maxConcurrent, Instant start) {
        if (interval.isNegative() || interval.isZero() || maxConcurrent < 1) {
            throw new IllegalArgumentException("interval must be positive and maxConcurrent at least 1, were "
                    + interval + " and " + maxConcurrent);
        }
        this.interval = interval;
        this.maxConcurrent = maxConcurrent;
        this.lastTrigger = start;
    }

    public Decision decide(Instant now, int pending) {
        if (now.isBefore(lastTrigger.plus(interval))) {
            return Decision.WAIT;
        }
        if (pending >= maxConcurrent) {
            if (!skipping) {
                skipped++; // one skip per due trigger, however many ticks it waits
                skipping = true;
            }
            return Decision.SKIP;
        }
        return Decision.TRIGGER;
    }

    /**
     * At a tick while the topology cannot take a checkpoint (a host is not LIVE, a task failed): a due trigger is
     * skipped and counted, and the next is due one interval later.
     *
     * @return whether one was due
     */
    public boolean skipIfDue(Instant now) {
        if (now.isBefore(lastTrigger.plus(interval))) {
            return false;
        }
        skipped++;
        lastTrigger = now;
        skipping = false;
        return true;
    }

    /** Whether a checkpoint may be triggered now on request, whatever the interval. */
    public boolean mayTrigger(int pending) {
        return pending < maxConcurrent;
    }

    public void triggered(Instant now) {
        lastTrigger = now;
        skipping = false;
    }

    public long skipped() {
        return skipped;
    }
}
