package io.steadfast.runtime.task;

import io.steadfast.api.Event;

/** Where an operator driver puts what its PEs or source emit. Task thread only. */
public interface EventOutput {

    void emit(Event<Object> event);
}
