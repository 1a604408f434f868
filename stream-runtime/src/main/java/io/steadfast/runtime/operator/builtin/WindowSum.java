package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.state.MapState;

/**
 * Sums numeric values of its key over tumbling event-time windows [start, start + windowMillis) and emits each
 * window's sum, with event time {@code start + windowMillis - 1}, when the watermark passes the window's end.
 * Integral values sum to a Long; once a Double arrives in a window, that window sums to a Double. Events later
 * than the watermark for a closed window are dropped.
 */
public final class WindowSum implements ProcessingElement<Object, Object> {

    private final long windowMillis;
    private final MapState<Long, Object> sums;

    public WindowSum(PeInit<WindowSumConfig> init) {
        this.windowMillis = init.config().windowMillis();
        this.sums = init.state().mapState("sums", Codecs.LONG, Codecs.ANY);
    }

    @Override
    public void process(Event<Object> event, PeContext<Object> context) {
        if (!(event.value() instanceof Number number)) {
            throw new IllegalArgumentException("window-sum needs numeric values, but key '" + event.key()
                    + "' got " + (event.value() == null ? "null" : event.value().getClass().getName())
                    + "; put a map operator in front that turns values into numbers");
        }
        long start = Math.floorDiv(event.eventTime(), windowMillis) * windowMillis;
        long end = start + windowMillis - 1;
        if (end <= context.watermark()) {
            return;
        }
        Object previous = sums.get(start);
        sums.put(start, add(previous, number));
        if (previous == null) {
            context.registerTimer(end);
        }
    }

    private static Object add(Object previous, Number number) {
        boolean integral = number instanceof Long || number instanceof Integer;
        if (previous == null) {
            return integral ? (Object) number.longValue() : (Object) number.doubleValue();
        }
        if (previous instanceof Long sum && integral) {
            return sum + number.longValue();
        }
        return ((Number) previous).doubleValue() + number.doubleValue();
    }

    @Override
    public void onTimer(long timestamp, PeContext<Object> context) {
        long start = timestamp - windowMillis + 1;
        Object sum = sums.get(start);
        if (sum != null) {
            sums.remove(start);
            context.emit(sum);
        }
    }
}
