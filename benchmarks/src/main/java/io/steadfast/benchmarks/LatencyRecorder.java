package io.steadfast.benchmarks;

import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;

/**
 * The end-to-end latencies a {@code latency-sink} saw in this JVM: wall-clock arrival minus the event time the
 * {@code wallclock-generator} stamped. Both processes run on one machine, so their clocks agree.
 */
final class LatencyRecorder {

    private static final Recorder RECORDER = new Recorder(3);

    private LatencyRecorder() {
    }

    static void record(long micros) {
        RECORDER.recordValue(Math.max(0, micros));
    }

    /** The latencies since the last call, in microseconds. */
    static Histogram drain() {
        return RECORDER.getIntervalHistogram();
    }
}
