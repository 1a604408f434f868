package io.steadfast.runtime.host;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-task rates from successive samples of the task counters. A sample taken less than the minimum interval
 * after the previous one reuses the previous rates, so callers that ask often (REST and heartbeats together)
 * do not shrink the window to noise. Thread-safe.
 */
final class TaskRates {

    private static final long MIN_INTERVAL_NANOS = 500_000_000L;

    /** The rates of one task, in records per second. */
    record Rates(double inPerSecond, double outPerSecond) {
        static final Rates NONE = new Rates(0, 0);
    }

    private record Sample(long nanos, long in, long out, Rates rates) {
    }

    private final Map<String, Sample> samples = new ConcurrentHashMap<>();

    Rates update(String task, long nowNanos, long recordsIn, long recordsOut) {
        Sample updated = samples.compute(task, (key, previous) -> {
            if (previous == null) {
                return new Sample(nowNanos, recordsIn, recordsOut, Rates.NONE);
            }
            long elapsed = nowNanos - previous.nanos();
            if (elapsed < MIN_INTERVAL_NANOS) {
                return previous;
            }
            double seconds = elapsed / 1e9;
            return new Sample(nowNanos, recordsIn, recordsOut, new Rates(
                    Math.max(0, recordsIn - previous.in()) / seconds, Math.max(0, recordsOut - previous.out()) / seconds));
        });
        return updated.rates();
    }

    void forget(String task) {
        samples.remove(task);
    }
}
