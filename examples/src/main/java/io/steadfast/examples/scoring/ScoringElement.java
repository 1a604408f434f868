package io.steadfast.examples.scoring;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;

/**
 * One version of the scoring operator at work: for each input it emits one event, the input's score under the
 * input's key and event time, after the faults its config injects. It keeps no state (one instance serves every key
 * of its task), so the versions differ only in how they compute the score.
 */
final class ScoringElement implements ProcessingElement<Object, Long> {

    private final String type;
    private final ScoreFunction function;
    private final InjectedFaults faults;

    ScoringElement(String type, ScoreFunction function, PeInit<ScoringConfig> init) {
        this.type = type;
        this.function = function;
        this.faults = new InjectedFaults(type, init.config(), init.operator());
    }

    @Override
    public void process(Event<Object> event, PeContext<Long> context) {
        faults.beforeInput();
        long value = integralValue(event);
        context.emit(faults.apply(event.key(), value, function.score(event.key(), value)));
    }

    private long integralValue(Event<Object> event) {
        Object value = event.value();
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        throw new IllegalArgumentException(type + " scores integral values (Long, Integer, Short, Byte), but key '"
                + event.key() + "' got " + (value == null ? "null" : value.getClass().getName() + " " + value)
                + "; feed it the generator's events, or put a map operator in front that turns values into integers");
    }
}
