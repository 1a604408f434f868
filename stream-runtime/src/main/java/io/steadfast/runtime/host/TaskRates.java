package io.steadfast.runtime.host;

import io.steadfast.runtime.task.TaskMetrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-task rates and timings from successive samples of the task counters. A sample taken less than the minimum
 * interval after the previous one reuses the previous figures, so callers that ask often (REST and heartbeats
 * together) do not shrink the window to noise. Thread-safe.
 */
final class TaskRates {

    private static final long MIN_INTERVAL_NANOS = 500_000_000L;

    /**
     * The figures of one task over the last window.
     *
     * @param inPerSecond records taken in per second
     * @param outPerSecond events emitted per second
     * @param latencyMillis the mean time the records taken in spent in the task (queueing and processing), or null
     *                      if it took none
     * @param busyFraction the share of the window its thread spent processing, 0 to 1
     * @param framesInPerSecond input frames (a source's polls that returned events) taken per second
     * @param outputWaitMillis the mean time the records sent waited in output frames, or null if it sent none
     */
    record Rates(double inPerSecond, double outPerSecond, Double latencyMillis, double busyFraction,
                 double framesInPerSecond, Double outputWaitMillis) {
        static final Rates NONE = new Rates(0, 0, null, 0, 0, null);
    }

    /** A reading of a task's cumulative counters. */
    record Counters(long recordsIn, long recordsOut, long busyNanos, long residenceNanos, long framesIn,
                    long recordsSent, long outputWaitNanos) {

        static Counters of(TaskMetrics metrics) {
            return new Counters(metrics.recordsIn(), metrics.recordsOut(), metrics.busyNanos(),
                    metrics.residenceNanos(), metrics.framesIn(), metrics.recordsSent(), metrics.outputWaitNanos());
        }
    }

    private record Sample(long nanos, Counters counters, Rates rates) {
    }

    private final Map<String, Sample> samples = new ConcurrentHashMap<>();

    Rates update(String task, long nowNanos, Counters now) {
        Sample updated = samples.compute(task, (key, previous) -> {
            if (previous == null) {
                return new Sample(nowNanos, now, Rates.NONE);
            }
            long elapsed = nowNanos - previous.nanos();
            if (elapsed < MIN_INTERVAL_NANOS) {
                return previous;
            }
            return new Sample(nowNanos, now, between(previous.counters(), now, elapsed));
        });
        return updated.rates();
    }

    private static Rates between(Counters before, Counters after, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        long in = Math.max(0, after.recordsIn() - before.recordsIn());
        long out = Math.max(0, after.recordsOut() - before.recordsOut());
        long residence = Math.max(0, after.residenceNanos() - before.residenceNanos());
        long busy = Math.max(0, after.busyNanos() - before.busyNanos());
        long frames = Math.max(0, after.framesIn() - before.framesIn());
        long sent = Math.max(0, after.recordsSent() - before.recordsSent());
        long outputWait = Math.max(0, after.outputWaitNanos() - before.outputWaitNanos());
        return new Rates(in / seconds, out / seconds, in == 0 ? null : residence / 1e6 / in,
                Math.min(1.0, busy / (double) elapsedNanos), frames / seconds,
                sent == 0 ? null : outputWait / 1e6 / sent);
    }

    void forget(String task) {
        samples.remove(task);
    }
}
