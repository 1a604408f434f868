package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.api.state.MapState;
import io.steadfast.api.state.ValueState;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeyedProcessorDriverTest {

    private static final OperatorInfo OPERATOR = new OperatorInfo("t", "op", 0, 1);
    private static final AtomicInteger CREATED = new AtomicInteger();

    /**
     * Counts events per key (value state), remembers the last value per value type (map state), and registers
     * a timer at eventTime + 10 that emits "timer:" + the count then.
     */
    static final class Tracker implements ProcessingElement<Object, Object> {
        private final ValueState<Long> count;
        private final MapState<String, Object> lastByType;

        Tracker(PeInit<NoConfig> init) {
            CREATED.incrementAndGet();
            count = init.state().valueState("count", Codecs.LONG);
            lastByType = init.state().mapState("last", Codecs.STRING, Codecs.ANY);
        }

        @Override
        public void process(Event<Object> event, PeContext<Object> context) {
            long next = count.valueOr(0L) + 1;
            count.update(next);
            lastByType.put(event.value().getClass().getSimpleName(), event.value());
            context.registerTimer(event.eventTime() + 10);
            context.emit(next);
        }

        @Override
        public void onTimer(long timestamp, PeContext<Object> context) {
            context.emit("timer:" + count.value() + "@" + timestamp + " wm " + context.watermark());
        }
    }

    private static final OperatorType<NoConfig> TRACKER = OperatorType.processor("tracker", NoConfig.class,
            Tracker::new, "test");

    private final List<Event<Object>> out = new ArrayList<>();

    private static KeyedProcessorDriver driverOf(OperatorType<?> type) {
        return new KeyedProcessorDriver(type, new NoConfig(), OPERATOR, ValueCodecRegistry.builtIn());
    }

    /** The input: 40 events over 4 keys with watermarks every 7 events. */
    private static void feed(KeyedProcessorDriver driver, int from, int to, List<Event<Object>> sink) {
        for (int i = from; i < to; i++) {
            Object value = i % 2 == 0 ? (Object) (long) i : "s" + i;
            driver.process(Event.of("k" + (i % 4), value, i * 3L), sink::add);
            if (i % 7 == 6) {
                driver.advanceWatermark(i * 3L - 5, sink::add);
            }
        }
    }

    @Test
    void createsOnePeInstancePerKey() {
        KeyedProcessorDriver driver = driverOf(TRACKER);
        int before = CREATED.get();

        feed(driver, 0, 12, out);

        assertThat(CREATED.get() - before).isEqualTo(4);
        assertThat(driver.keyCount()).isEqualTo(4);
        assertThat(driver.query("count", "k1")).contains(3L);
    }

    @Test
    void anInstancePerTaskServesEveryKeyWithEachKeysOwnStateAndSurvivesARestoreAlike() {
        OperatorType<NoConfig> perTask = TRACKER.withInstancePerTask();
        KeyedProcessorDriver uninterrupted = driverOf(TRACKER);
        List<Event<Object>> expected = new ArrayList<>();
        feed(uninterrupted, 0, 40, expected);
        uninterrupted.advanceWatermark(Long.MAX_VALUE, expected::add);

        int before = CREATED.get();
        KeyedProcessorDriver first = driverOf(perTask);
        List<Event<Object>> actual = new ArrayList<>();
        feed(first, 0, 22, actual);
        assertThat(CREATED.get() - before).as("one instance for four keys").isEqualTo(1);
        OperatorSnapshot snapshot = OperatorSnapshot.take("tracker", first);
        KeyedProcessorDriver restored = driverOf(perTask);
        OperatorSnapshot.fromBytes(snapshot.toBytes()).restoreInto("tracker", restored);
        feed(restored, 22, 40, actual);
        restored.advanceWatermark(Long.MAX_VALUE, actual::add);

        assertThat(CREATED.get() - before).as("and one for the restored task").isEqualTo(2);
        assertThat(perTask.keyed()).isTrue();
        assertThat(actual).as("the same output as one instance per key").isEqualTo(expected);
        for (int k = 0; k < 4; k++) {
            assertThat(restored.query("count", "k" + k)).isEqualTo(uninterrupted.query("count", "k" + k));
        }
    }

    @Test
    void continuesAfterSnapshotAndRestoreExactlyAsWithoutInterruption() {
        KeyedProcessorDriver uninterrupted = driverOf(TRACKER);
        List<Event<Object>> expected = new ArrayList<>();
        feed(uninterrupted, 0, 40, expected);
        uninterrupted.advanceWatermark(Long.MAX_VALUE, expected::add);
        KeyedProcessorDriver first = driverOf(TRACKER);
        List<Event<Object>> actual = new ArrayList<>();
        feed(first, 0, 22, actual);
        OperatorSnapshot snapshot = OperatorSnapshot.take("tracker", first);
        feed(first, 22, 30, new ArrayList<>()); // work after the snapshot is lost

        KeyedProcessorDriver restored = driverOf(TRACKER);
        OperatorSnapshot.fromBytes(snapshot.toBytes()).restoreInto("tracker", restored);
        feed(restored, 22, 40, actual);
        restored.advanceWatermark(Long.MAX_VALUE, actual::add);

        assertThat(restored.watermark()).isEqualTo(Long.MAX_VALUE);
        assertThat(actual).isEqualTo(expected);
        for (int k = 0; k < 4; k++) {
            assertThat(restored.query("count", "k" + k)).isEqualTo(uninterrupted.query("count", "k" + k));
            assertThat(restored.query("last", "k" + k)).isEqualTo(uninterrupted.query("last", "k" + k));
        }
    }

    @Test
    void restoresTheWatermarkAndPendingTimers() {
        KeyedProcessorDriver first = driverOf(TRACKER);
        first.process(Event.of("a", 1L, 100), out::add);
        first.advanceWatermark(50, out::add);
        OperatorSnapshot snapshot = OperatorSnapshot.take("tracker", first);
        KeyedProcessorDriver restored = driverOf(TRACKER);
        out.clear();

        snapshot.restoreInto("tracker", restored);
        restored.advanceWatermark(40, out::add); // behind the restored watermark: ignored
        int pendingAfterRestore = restored.timerCount();
        restored.advanceWatermark(110, out::add);

        assertThat(restored.watermark()).isEqualTo(110);
        assertThat(pendingAfterRestore).isEqualTo(1);
        assertThat(out).containsExactly(Event.of("a", "timer:1@110 wm 110", 110));
    }

    @Test
    void firesTimersOfAKeyWithoutStateAfterRestore() {
        OperatorType<NoConfig> timerOnly = OperatorType.processor("timer-only", NoConfig.class,
                init -> new ProcessingElement<Object, Object>() {
                    @Override
                    public void process(Event<Object> event, PeContext<Object> context) {
                        context.registerTimer(event.eventTime());
                    }

                    @Override
                    public void onTimer(long timestamp, PeContext<Object> context) {
                        context.emit(context.key() + "@" + timestamp);
                    }
                }, "test");
        KeyedProcessorDriver first = driverOf(timerOnly);
        first.process(Event.of("x", 0L, 7), out::add);
        OperatorSnapshot snapshot = OperatorSnapshot.take("timer-only", first);
        KeyedProcessorDriver restored = driverOf(timerOnly);
        snapshot.restoreInto("timer-only", restored);

        restored.advanceWatermark(7, out::add);

        assertThat(restored.keyCount()).isEqualTo(1);
        assertThat(out).containsExactly(Event.of("x", "x@7", 7));
    }

    @Test
    void refusesToRestoreStateThePeNowDeclaresWithAnotherCodec() {
        KeyedProcessorDriver first = driverOf(TRACKER);
        first.process(Event.of("a", 1L, 1), out::add);
        OperatorSnapshot snapshot = OperatorSnapshot.take("tracker", first);
        OperatorType<NoConfig> changed = OperatorType.processor("tracker", NoConfig.class, init -> {
            ValueState<Integer> count = init.state().valueState("count", Codecs.INT);
            return (event, context) -> count.update(1);
        }, "test");

        assertThatThrownBy(() -> snapshot.restoreInto("tracker", driverOf(changed)))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("State 'count' in the snapshot is a value state with codec 'long'")
                .hasMessageContaining("the PE declares value state with codec 'int'");
    }

    @Test
    void refusesToRestoreIntoADriverThatAlreadyHoldsState() {
        KeyedProcessorDriver first = driverOf(TRACKER);
        first.process(Event.of("a", 1L, 1), out::add);
        OperatorSnapshot snapshot = OperatorSnapshot.take("tracker", first);

        assertThatThrownBy(() -> snapshot.restoreInto("tracker", first))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already holds state");
    }

    @Test
    void refusesASnapshotOfAnotherOperatorType() {
        OperatorSnapshot snapshot = OperatorSnapshot.take("tracker", driverOf(TRACKER));

        assertThatThrownBy(() -> snapshot.restoreInto("window-sum", driverOf(TRACKER)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Snapshot of operator type 'tracker' cannot restore an operator of type 'window-sum'");
    }

    @Test
    void servesEveryKeyWithOneSharedInstance() {
        AtomicInteger created = new AtomicInteger();
        OperatorType<NoConfig> shared = OperatorType.processor("shared", NoConfig.class, init -> {
            created.incrementAndGet();
            return (ProcessingElement<Object, Object>) (event, context) -> context.emit(context.key());
        }, "test").withSharedInstance();
        KeyedProcessorDriver driver = driverOf(shared);

        driver.process(Event.of("a", 1L, 1), out::add);
        driver.process(Event.of("b", 1L, 2), out::add);

        assertThat(created.get()).isEqualTo(1);
        assertThat(driver.keyCount()).isZero();
        assertThat(out).extracting(Event::value).containsExactly("a", "b");
    }

    @Test
    void refusesStateInASharedInstanceOperatorSayingWhy() {
        OperatorType<NoConfig> shared = OperatorType.processor("shared", NoConfig.class, init -> {
            init.state().valueState("count", Codecs.LONG);
            return (event, context) -> { };
        }, "test").withSharedInstance();

        assertThatThrownBy(() -> driverOf(shared))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("State 'count' cannot be declared")
                .hasMessageContaining("withSharedInstance()");
    }

    @Test
    void refusesAnOperatorTypeWithoutAPeFactory() {
        OperatorType<NoConfig> source = OperatorType.source("src", NoConfig.class, init -> null, "test");

        assertThatThrownBy(() -> driverOf(source))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no PE factory");
    }

    @Test
    void emitsWithTheKeyAndEventTimeOfTheCall() {
        OperatorType<NoConfig> emitter = OperatorType.processor("emitter", NoConfig.class,
                init -> (ProcessingElement<Object, Object>) (event, context) -> {
                    context.emit("same");
                    context.emit("other-key", "moved");
                    context.emit(Event.<Object>of("full", "event", 99));
                }, "test");
        KeyedProcessorDriver driver = driverOf(emitter);

        driver.process(Event.of("k", 0L, 5), out::add);

        assertThat(out).containsExactly(Event.of("k", "same", 5), Event.of("other-key", "moved", 5),
                Event.of("full", "event", 99));
        assertThat(driver.queryAll("none", 10)).isEqualTo(Map.of());
    }

    @Test
    void aStateHandleUsedAfterProcessReturnedFailsInsteadOfActingOnTheLastKey() {
        List<ValueState<Long>> leaked = new ArrayList<>();
        OperatorType<NoConfig> leaking = OperatorType.processor("leaking", NoConfig.class, init -> {
            ValueState<Long> state = init.state().valueState("n", Codecs.LONG);
            leaked.add(state);
            return (event, context) -> state.update(1L);
        }, "test");
        KeyedProcessorDriver driver = new KeyedProcessorDriver(leaking, new NoConfig(), OPERATOR,
                ValueCodecRegistry.builtIn());
        driver.process(Event.of("a", 1L, 0), event -> { });

        assertThatThrownBy(() -> leaked.get(0).update(2L)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside process() or onTimer()");
        assertThat(driver.query("n", "a")).contains(1L);
    }

    @Test
    void aTimerRegisteredByATimerAtOrBeforeTheWatermarkFiresInTheSameAdvance() {
        List<String> fired = new ArrayList<>();
        OperatorType<NoConfig> chaining = OperatorType.processor("chaining", NoConfig.class, init ->
                new ProcessingElement<Object, Object>() {
                    @Override
                    public void process(Event<Object> event, PeContext<Object> context) {
                        context.registerTimer(10);
                    }

                    @Override
                    public void onTimer(long timestamp, PeContext<Object> context) {
                        fired.add(context.key() + "@" + timestamp);
                        if (timestamp == 10) {
                            context.registerTimer(15);
                        }
                    }
                }, "test");
        KeyedProcessorDriver driver = new KeyedProcessorDriver(chaining, new NoConfig(), OPERATOR,
                ValueCodecRegistry.builtIn());
        driver.process(Event.of("a", 1L, 0), event -> { });

        driver.advanceWatermark(20, event -> { });

        assertThat(fired).containsExactly("a@10", "a@15");
        assertThat(driver.timerCount()).isZero();
    }

    @Test
    void aTimerThatReRegistersItselfForeverDoesNotHangTheTask() {
        OperatorType<NoConfig> looping = OperatorType.processor("looping", NoConfig.class, init ->
                new ProcessingElement<Object, Object>() {
                    @Override
                    public void process(Event<Object> event, PeContext<Object> context) {
                        context.registerTimer(10);
                    }

                    @Override
                    public void onTimer(long timestamp, PeContext<Object> context) {
                        context.registerTimer(timestamp);
                    }
                }, "test");
        KeyedProcessorDriver driver = new KeyedProcessorDriver(looping, new NoConfig(), OPERATOR,
                ValueCodecRegistry.builtIn());
        driver.process(Event.of("a", 1L, 0), event -> { });

        driver.advanceWatermark(20, event -> { });

        assertThat(driver.timerCount()).as("left for the next watermark").isEqualTo(1);
    }
}
