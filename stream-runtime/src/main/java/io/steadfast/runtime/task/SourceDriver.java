package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.api.OperatorInfo;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.api.source.Source;
import io.steadfast.api.source.SourceFactory;
import io.steadfast.api.source.SourceInit;
import io.steadfast.api.source.SourceOutput;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import java.time.InstantSource;

/**
 * Runs a source: polls it for events and tracks the watermark it implies. Sources emit in event-time order, but
 * the next event may carry the same time as the last one, so the watermark is one less than the latest event
 * time emitted: every event still to come is later than the watermark, and a timer at the watermark can fire
 * without dropping anything. Its snapshot is the source position. Task thread only.
 */
public final class SourceDriver implements OperatorDriver {

    private final Source<Object> source;
    private final Output output = new Output();
    private long watermark = Long.MIN_VALUE;
    private boolean exhausted;

    @SuppressWarnings("unchecked")
    public SourceDriver(OperatorType<?> type, Object config, OperatorInfo operator, InstantSource clock) {
        SourceFactory<Object, Object> factory = (SourceFactory<Object, Object>) type.sourceFactory().orElseThrow(
                () -> new IllegalArgumentException(type + " is not a source"));
        this.source = factory.create(new SourceInit<>() {
            @Override
            public Object config() {
                return config;
            }

            @Override
            public OperatorInfo operator() {
                return operator;
            }

            @Override
            public InstantSource clock() {
                return clock;
            }
        });
    }

    /**
     * Polls at most {@code maxEvents} events into {@code target}.
     *
     * @return the number emitted, or {@link Source#EXHAUSTED} once the source is finished (then the watermark
     *         is {@link Long#MAX_VALUE})
     */
    public int poll(EventOutput target, int maxEvents) {
        if (exhausted) {
            return Source.EXHAUSTED;
        }
        output.target = target;
        int emitted = source.poll(output, maxEvents);
        if (emitted == Source.EXHAUSTED) {
            exhausted = true;
            watermark = Long.MAX_VALUE;
        }
        return emitted;
    }

    public long watermark() {
        return watermark;
    }

    public boolean isExhausted() {
        return exhausted;
    }

    public long position() {
        return source.position();
    }

    @Override
    public PreparedSnapshot prepareSnapshot() {
        long position = source.position();
        long watermarkNow = watermark;
        return out -> {
            out.writeVarLong(position);
            out.writeVarLong(watermarkNow);
        };
    }

    @Override
    public void restore(ByteArrayCodecInput in) {
        source.seek(in.readVarLong());
        watermark = in.readVarLong();
        exhausted = false;
    }

    private final class Output implements SourceOutput<Object> {

        private EventOutput target;

        @Override
        public void emit(String key, Object value, long eventTime) {
            if (eventTime - 1 > watermark) {
                watermark = eventTime - 1;
            }
            target.emit(new Event<>(key, value, eventTime, Headers.empty()));
        }
    }
}
