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
 * Operators for latency measurement only: a generator whose event time is the wall-clock time of emission in
 * microseconds (so not replayable), and a sink recording arrival minus event time.
 */
public final class BenchmarkOperators implements OperatorProvider {

    @Override
    public List<OperatorType<?>> operatorTypes() {
        return List.of(
                OperatorType.source("wallclock-generator", GeneratorConfig.class, WallClockGenerator::new,
                        "The generator, stamping each event with the wall-clock micros of its emission"),
                OperatorType.sink("latency-sink", NoConfig.class, init -> new LatencySink(),
                        "Records end-to-end latency from the event time in micros").withSharedInstance());
    }

    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
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

    static final class LatencySink implements ProcessingElement<Object, Void> {

        @Override
        public void process(Event<Object> event, PeContext<Void> context) {
            LatencyRecorder.record(nowMicros() - event.eventTime());
        }
    }
}
