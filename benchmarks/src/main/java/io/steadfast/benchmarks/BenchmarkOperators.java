package io.steadfast.benchmarks;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.api.source.Source;
import io.steadfast.api.source.SourceInit;
import io.steadfast.api.source.SourceOutput;
import io.steadfast.runtime.operator.builtin.GeneratorConfig;
import io.steadfast.runtime.operator.builtin.GeneratorSource;
import java.time.Instant;
import java.util.List;

/**
 * Operators of the benchmarks: for latency measurement a generator whose event time is the wall-clock time of emission
 * in microseconds (so not replayable) and a sink recording arrival minus event time; and a keyed count that computes
 * for a while on every event ({@link BusyCount}).
 */
public final class BenchmarkOperators implements OperatorProvider {

    @Override
    public List<OperatorType<?>> operatorTypes() {
        return List.of(
                OperatorType.source("wallclock-generator", GeneratorConfig.class, WallClockGenerator::new,
                        "The generator, stamping each event with the wall-clock micros of its emission"),
                OperatorType.sink("latency-sink", NoConfig.class, init -> new LatencySink(),
                        "Records end-to-end latency from the event time in micros").withSharedInstance(),
                OperatorType.processor("busy-count", BusyCount.Config.class, BusyCount::new,
                        "Counts per key, computing for a while on every event"));
    }

    /**
     * Wall-clock micros from the monotonic clock plus an offset calibrated once per JVM against the system
     * clock: as accurate across the two processes as the system clock, without an allocation per call.
     */
    private static final long MICROS_OFFSET = calibrate();

    private static long calibrate() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000 - System.nanoTime() / 1_000;
    }

    static long nowMicros() {
        return System.nanoTime() / 1_000 + MICROS_OFFSET;
    }

    /** Wraps the deterministic generator and replaces the event time by the emission time. */
    static final class WallClockGenerator implements Source<Object> {

        private final GeneratorSource delegate;

        WallClockGenerator(SourceInit<GeneratorConfig> init) {
            this.delegate = new GeneratorSource(init);
        }

        @Override
        public int poll(SourceOutput<Object> output, int maxEvents) {
            long nowMicros = nowMicros();
            return delegate.poll((key, value, eventTime) -> output.emit(key, value, nowMicros), maxEvents);
        }

        @Override
        public long position() {
            return delegate.position();
        }

        @Override
        public void seek(long position) {
            delegate.seek(position);
        }
    }

    /** Records the latency of one event in {@value #SAMPLE_EVERY}, so measuring does not load the pipeline. */
    static final class LatencySink implements ProcessingElement<Object, Void> {

        static final int SAMPLE_EVERY = 16;

        private int seen;

        @Override
        public void process(Event<Object> event, PeContext<Void> context) {
            if (++seen == SAMPLE_EVERY) {
                seen = 0;
                long now = nowMicros();
                LatencyRecorder.record(now, now - event.eventTime());
            }
        }
    }
}
