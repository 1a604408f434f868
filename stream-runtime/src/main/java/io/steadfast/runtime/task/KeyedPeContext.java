package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.api.PeContext;
import io.steadfast.runtime.state.KeyedTimers;
import java.util.Objects;

/** The one reusable {@link PeContext} of a keyed driver, re-pointed at each call. Task thread only. */
final class KeyedPeContext implements PeContext<Object> {

    private final KeyedTimers timers;
    private final ProcessingClock clock;
    private EventOutput output;
    private String key;
    private long eventTime;
    private long watermark = Long.MIN_VALUE;

    KeyedPeContext(KeyedTimers timers, ProcessingClock clock) {
        this.timers = timers;
        this.clock = clock;
    }

    void bind(EventOutput newOutput, String newKey, long newEventTime) {
        this.output = newOutput;
        this.key = newKey;
        this.eventTime = newEventTime;
    }

    void setWatermark(long newWatermark) {
        this.watermark = newWatermark;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public long eventTime() {
        return eventTime;
    }

    @Override
    public long watermark() {
        return watermark;
    }

    @Override
    public void emit(Object value) {
        output.emit(new Event<>(key, value, eventTime, Headers.empty()));
    }

    @Override
    public void emit(String otherKey, Object value) {
        output.emit(new Event<>(Objects.requireNonNull(otherKey, "key"), value, eventTime, Headers.empty()));
    }

    @Override
    public void emit(Event<Object> event) {
        output.emit(Objects.requireNonNull(event, "event"));
    }

    @Override
    public void registerTimer(long timestamp) {
        timers.register(timestamp, key);
    }

    @Override
    public void deleteTimer(long timestamp) {
        timers.delete(timestamp, key);
    }

    @Override
    public long currentProcessingTime() {
        return clock.readByPe();
    }

    @Override
    public void registerProcessingTimeTimer(long timestamp) {
        clock.timers().register(timestamp, key);
    }

    @Override
    public void deleteProcessingTimeTimer(long timestamp) {
        clock.timers().delete(timestamp, key);
    }
}
