package io.steadfast.runtime.task;

import io.steadfast.runtime.state.KeyedTimers;

/**
 * A keyed task's processing-time clock and timers. The clock moves only when the task logs a reading (a
 * {@code ProcessingTime} decision) and applies it, so PEs read the same times again when the task is replayed
 * after a recovery. A task reads the wall clock into it when a timer is due, and, once a PE has read it, whenever
 * the reading is {@value #FRESHNESS_MILLIS} ms old before it takes more input; and once as it starts, so that no
 * PE ever reads an unset clock. A reading is never later than the arrival of the input the task takes next, so
 * timers fire in the order of the input's arrival however far behind the task is. Task thread only.
 */
final class ProcessingClock {

    /** How stale the clock a PE reads may be, at most, when the task takes input. */
    static final long FRESHNESS_MILLIS = 10;

    private final KeyedTimers timers = new KeyedTimers();
    private long millis = Long.MIN_VALUE;
    private boolean read;

    KeyedTimers timers() {
        return timers;
    }

    /** The latest reading applied; {@link Long#MIN_VALUE} before the first. */
    long millis() {
        return millis;
    }

    /** The reading a PE sees; from now on the task keeps the clock fresh. */
    long readByPe() {
        read = true;
        return millis;
    }

    /** Whether the task should read the wall clock ({@code nowMillis}) into the clock before it goes on. */
    boolean isDue(long nowMillis) {
        return millis == Long.MIN_VALUE
                || nowMillis >= timers.next() && nowMillis > millis
                || read && nowMillis - millis >= FRESHNESS_MILLIS;
    }

    /** Applies a reading; the clock never goes back. Returns whether it moved. */
    boolean advanceTo(long reading) {
        if (reading <= millis) {
            return false;
        }
        millis = reading;
        return true;
    }

    /** Restores a reading from a snapshot; the timers are restored by the snapshot codec. */
    void restore(long reading, boolean wasRead) {
        millis = reading;
        read = wasRead;
    }

    boolean wasRead() {
        return read;
    }
}
