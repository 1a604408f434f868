package io.steadfast.benchmarks;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.operator.ConfigException;
import io.steadfast.api.state.ValueState;

/**
 * A keyed count that computes for a while on every event, standing for a PE whose own work outweighs what the runtime
 * spends on an event (a scoring model, say): {@code work} rounds of a 64-bit mixing function over the key's count, whose
 * low bits go out with the count, so the work cannot be skipped and every run (and every version) emits the same.
 */
final class BusyCount implements ProcessingElement<Object, Object> {

    /** @param work rounds of mixing per event (default 2,000) */
    record Config(Integer work) {

        Config {
            work = work == null ? 2_000 : work;
            if (work < 0) {
                throw new ConfigException("work", "work must be at least 0, was " + work);
            }
        }
    }

    private final ValueState<Long> count;
    private final int work;

    BusyCount(PeInit<Config> init) {
        this.count = init.state().valueState("count", Codecs.LONG);
        this.work = init.config().work();
    }

    @Override
    public void process(Event<Object> event, PeContext<Object> context) {
        long next = count.valueOr(0L) + 1;
        count.update(next);
        long mix = next ^ event.key().hashCode();
        for (int round = 0; round < work; round++) {
            mix = mix * 6364136223846793005L + 1442695040888963407L;
            mix ^= mix >>> 29;
        }
        context.emit(next << 8 | mix & 0xff);
    }
}
