package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.state.ValueState;

/** Keeps the latest value of each key in the state {@value #STATE}, which hosts serve over REST. */
public final class LatestValueSink implements ProcessingElement<Object, Void> {

    public static final String STATE = "latest";

    private final ValueState<Object> latest;

    public LatestValueSink(PeInit<NoConfig> init) {
        this.latest = init.state().valueState(STATE, Codecs.ANY);
    }

    @Override
    public void process(Event<Object> event, PeContext<Void> context) {
        latest.update(event.value());
    }
}
