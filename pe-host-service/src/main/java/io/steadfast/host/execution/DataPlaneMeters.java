package io.steadfast.host.execution;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.steadfast.runtime.dataplane.DataPlaneMetrics;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The host's data plane counters ({@link DataPlaneMetrics}) as Micrometer meters, read at each scrape:
 * {@code steadfast.dataplane.frames.sent}, {@code .resent}, {@code .received}, {@code steadfast.dataplane.sent.bytes},
 * {@code steadfast.dataplane.received.bytes}, {@code steadfast.dataplane.frames.dropped} tagged {@code reason} (duplicate, out_of_order,
 * unsequenced, malformed, oversized, corrupt, fenced, unknown_channel) and {@code steadfast.dataplane.io.errors},
 * function counters all; the gauge {@code steadfast.dataplane.retained} (bytes sent, not yet consumed, in memory or
 * spilled). No tags but the reason: one data plane per host.
 */
public final class DataPlaneMeters implements MeterBinder {

    private static final Map<String, ToLongFunction<DataPlaneMetrics>> DROPPED = Map.of(
            "duplicate", DataPlaneMetrics::duplicateFramesDropped,
            "out_of_order", DataPlaneMetrics::outOfOrderFramesDropped,
            "unsequenced", DataPlaneMetrics::unsequencedFramesDropped,
            "malformed", DataPlaneMetrics::malformedFramesDropped,
            "oversized", DataPlaneMetrics::oversizedFramesDropped,
            "corrupt", DataPlaneMetrics::corruptFramesDropped,
            "fenced", DataPlaneMetrics::fencedMessagesDropped,
            "unknown_channel", DataPlaneMetrics::unknownChannelFramesDropped);

    private final DataPlaneMetrics metrics;

    public DataPlaneMeters(DataPlaneMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "steadfast.dataplane.frames.sent", "DATA frames sent for the first time", null,
                DataPlaneMetrics::framesSent);
        counter(registry, "steadfast.dataplane.frames.resent",
                "DATA frames sent again, after a receiver reported a gap or to a recovered receiver", null,
                DataPlaneMetrics::framesResent);
        counter(registry, "steadfast.dataplane.frames.received", "DATA frames received and decoded, before dedupe",
                null, DataPlaneMetrics::framesReceived);
        counter(registry, "steadfast.dataplane.sent.bytes", "Bytes of DATA frames sent, resends included", "bytes",
                DataPlaneMetrics::bytesSent);
        counter(registry, "steadfast.dataplane.received.bytes", "Bytes of every message received", "bytes",
                DataPlaneMetrics::bytesReceived);
        counter(registry, "steadfast.dataplane.io.errors", "Unexpected exceptions the IO loop survived (a bug)", null,
                DataPlaneMetrics::ioLoopErrors);
        DROPPED.forEach((reason, count) -> FunctionCounter.builder("steadfast.dataplane.frames.dropped", metrics,
                        m -> count.applyAsLong(m))
                .description("Messages received and dropped, by reason").tag("reason", reason).register(registry));
        Gauge.builder("steadfast.dataplane.retained", metrics, DataPlaneMetrics::retainedBytes).baseUnit("bytes")
                .description("Bytes sent and retained until consumed, in memory or spilled").register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, String unit,
                         ToLongFunction<DataPlaneMetrics> count) {
        FunctionCounter.builder(name, metrics, m -> count.applyAsLong(m)).description(description).baseUnit(unit)
                .register(registry);
    }
}
