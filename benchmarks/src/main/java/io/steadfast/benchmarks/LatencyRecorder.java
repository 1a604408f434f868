package io.steadfast.benchmarks;

import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The end-to-end latencies a {@code latency-sink} saw in this JVM: wall-clock arrival minus the event time the
 * {@code wallclock-generator} stamped. Both processes run on one machine, so their clocks agree. Besides the
 * histogram it keeps the worst latency of every 100 ms of arrival time, to tell stalls from steady queueing.
 */
final class LatencyRecorder {

    private static final Recorder RECORDER = new Recorder(3);
    private static final int WINDOWS = 1200;
    private static final AtomicLongArray WORST_PER_WINDOW = new AtomicLongArray(WINDOWS);
    private static volatile long windowsStartMicros;

    private LatencyRecorder() {
    }

    static void record(long arrivalMicros, long latencyMicros) {
        long micros = Math.max(0, latencyMicros);
        RECORDER.recordValue(micros);
        int window = (int) ((arrivalMicros - windowsStartMicros) / 100_000);
        if (window >= 0 && window < WINDOWS && WORST_PER_WINDOW.get(window) < micros) {
            WORST_PER_WINDOW.set(window, micros);
        }
    }

    /** The latencies since the last call, in microseconds; restarts the per-window record too. */
    static Histogram drain(long nowMicros) {
        Histogram histogram = RECORDER.getIntervalHistogram();
        windowsStartMicros = nowMicros;
        for (int i = 0; i < WINDOWS; i++) {
            WORST_PER_WINDOW.set(i, 0);
        }
        return histogram;
    }

    /** The worst latency of each 100 ms window since the last drain, in micros (0 for windows not reached). */
    static long[] worstPerWindow() {
        long[] copy = new long[WINDOWS];
        for (int i = 0; i < WINDOWS; i++) {
            copy[i] = WORST_PER_WINDOW.get(i);
        }
        return copy;
    }
}
