package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.operator.FilterPredicate;

/** Forwards the events for which a named predicate holds. */
final class FilterElement implements ProcessingElement<Object, Object> {

    private final FilterPredicate predicate;

    FilterElement(FilterPredicate predicate) {
        this.predicate = predicate;
    }

    @Override
    public void process(Event<Object> event, PeContext<Object> context) {
        if (predicate.test(event.key(), event.value())) {
            context.emit(event);
        }
    }
}
