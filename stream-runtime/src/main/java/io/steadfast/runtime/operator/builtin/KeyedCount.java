package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.state.ValueState;

/** Counts the events of its key and emits the new count (a Long) for each. */
public final class KeyedCount implements ProcessingElement<Object, Long> {

    public static final String STATE = "count";

    private final ValueState<Long> count;

    public KeyedCount(PeInit<NoConfig> init) {
        this.count = init.state().valueState(STATE, Codecs.LONG);
    }

    @Override
    public void process(Event<Object> event, PeContext<Long> context) {
        long next = count.valueOr(0L) + 1;
        count.update(next);
        context.emit(next);
    }
}
