package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs one of every N events it receives, with the running total. One shared instance serves all keys. */
public final class LogSink implements ProcessingElement<Object, Void> {

    private static final Logger LOG = LoggerFactory.getLogger(LogSink.class);

    private final long every;
    private final String where;
    private long seen;

    public LogSink(PeInit<LogSinkConfig> init) {
        this.every = init.config().every();
        this.where = init.operator().operatorId() + "#" + init.operator().subtask();
    }

    @Override
    public void process(Event<Object> event, PeContext<Void> context) {
        seen++;
        if (seen % every == 0) {
            LOG.info("{} event {}: key={} value={} eventTime={}", where, seen, event.key(), event.value(),
                    event.eventTime());
        }
    }
}
