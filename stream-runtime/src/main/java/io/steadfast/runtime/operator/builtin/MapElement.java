package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.operator.MapFunction;

/** Applies a named map function to each value, keeping key, event time and headers. */
final class MapElement implements ProcessingElement<Object, Object> {

    private final MapFunction function;

    MapElement(MapFunction function) {
        this.function = function;
    }

    @Override
    public void process(Event<Object> event, PeContext<Object> context) {
        context.emit(event.withValue(function.apply(event.key(), event.value())));
    }
}
