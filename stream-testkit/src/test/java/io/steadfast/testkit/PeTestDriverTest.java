package io.steadfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.CodecInput;
import io.steadfast.api.codec.CodecOutput;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.codec.ValueCodec;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.state.ValueState;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeTestDriverTest {

    /** Counts the events of its key and emits the new count. */
    static final class WordCount implements ProcessingElement<String, Long> {
        private final ValueState<Long> count;

        WordCount(PeInit<NoConfig> init) {
            count = init.state().valueState("count", Codecs.LONG);
        }

        @Override
        public void process(Event<String> event, PeContext<Long> context) {
            long next = count.valueOr(0L) + 1;
            count.update(next);
            context.emit(next);
        }
    }

    /** A user value type that needs a codec of its own. */
    record Point(int x, int y) {
    }

    static final ValueCodec<Point> POINT = new ValueCodec<>() {
        @Override
        public String name() {
            return "point";
        }

        @Override
        public Class<Point> type() {
            return Point.class;
        }

        @Override
        public void encode(Point value, CodecOutput out) {
            out.writeVarInt(value.x());
            out.writeVarInt(value.y());
        }

        @Override
        public Point decode(CodecInput in) {
            return new Point(in.readVarInt(), in.readVarInt());
        }
    };

    @Test
    void keepsCountsAcrossSnapshotAndRestore() {
        OperatorSnapshot snapshot;
        try (var driver = PeTestDriver.of(WordCount::new).build()) {
            driver.send("a", "x").send("a", "x");
            snapshot = driver.snapshot();
        }

        try (var restored = PeTestDriver.of(WordCount::new).restoreFrom(snapshot).build()) {
            restored.send("a", "x");
            assertThat(restored.outputValues()).containsExactly(3L);
        }
    }

    @Test
    void capturesOutputsWithKeyAndEventTime() {
        try (var driver = PeTestDriver.of(WordCount::new).build()) {
            driver.send("a", "x").send("b", "y").send("a", "z", 100).send("b", "w");

            assertThat(driver.outputs()).containsExactly(Event.of("a", 1L, 0), Event.of("b", 1L, 1),
                    Event.of("a", 2L, 100), Event.of("b", 2L, 101));
            assertThat(driver.latestOutputByKey()).containsExactly(Map.entry("a", 2L), Map.entry("b", 2L));
            assertThat(driver.state("count", "a")).contains(2L);
            assertThat(driver.state("count", "nobody")).isEmpty();
            assertThat(driver.state("no-such-state", "a")).isEmpty();
            assertThat(driver.keyCount()).isEqualTo(2);
        }
    }

    @Test
    void clearsCapturedOutputs() {
        try (var driver = PeTestDriver.of(WordCount::new).build()) {
            driver.send("a", "x").clearOutputs().send("a", "x");

            assertThat(driver.outputValues()).containsExactly(2L);
        }
    }

    @Test
    void passesHeadersThroughTheWireCodec() {
        ProcessingElement<Object, Object> echoHeaders = (event, context) ->
                context.emit(event.headers().get("trace").orElse("none"));
        try (var driver = PeTestDriver.<Object, Object>of(init -> echoHeaders).build()) {
            driver.send(Event.of("a", "x", 5).withHeader("trace", "t-1"));

            assertThat(driver.outputs()).containsExactly(Event.of("a", "t-1", 5));
        }
    }

    @Test
    void refusesAValueTypeWithoutARegisteredCodecAsTheWireWould() {
        try (var driver = PeTestDriver.of(WordCount::new).build()) {
            assertThatThrownBy(() -> driver.send("a", new Point(1, 2)))
                    .isInstanceOf(CodecException.class)
                    .hasMessageContaining("No codec for values of " + Point.class.getName());
        }
    }

    @Test
    void refusesAnEmittedValueWithoutARegisteredCodec() {
        ProcessingElement<Object, Object> toPoint = (event, context) -> context.emit(new Point(1, 2));
        try (var driver = PeTestDriver.<Object, Object>of(init -> toPoint).build()) {
            assertThatThrownBy(() -> driver.send("a", 1L))
                    .isInstanceOf(CodecException.class)
                    .hasMessageContaining(Point.class.getName());
        }
    }

    @Test
    void keepsWorkingAfterAValueWasRefused() {
        try (var driver = PeTestDriver.of(WordCount::new).build()) {
            assertThatThrownBy(() -> driver.send("a", new Point(1, 2))).isInstanceOf(CodecException.class);

            driver.send("a", "x");

            assertThat(driver.outputs()).containsExactly(Event.of("a", 1L, 1));
        }
    }

    @Test
    void carriesValuesOfARegisteredCodec() {
        ProcessingElement<Object, Object> mirror = (event, context) -> {
            Point p = (Point) event.value();
            context.emit(new Point(p.y(), p.x()));
        };
        try (var driver = PeTestDriver.<Object, Object>of(init -> mirror).codec(POINT).build()) {
            driver.send("a", new Point(1, 2));

            assertThat(driver.outputValues()).containsExactly(new Point(2, 1));
        }
    }

    @Test
    void refusesASnapshotOfAnotherOperatorType() {
        OperatorSnapshot snapshot;
        try (var driver = PeTestDriver.of(WordCount::new).build()) {
            snapshot = driver.snapshot();
        }
        var builtIn = io.steadfast.runtime.operator.OperatorRegistry.of(List.of()).require("keyed-count");

        @SuppressWarnings("unchecked")
        var builder = PeTestDriver.forType((io.steadfast.api.operator.OperatorType<NoConfig>) builtIn, new NoConfig())
                .restoreFrom(snapshot);

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'pe-under-test' cannot restore an operator of type 'keyed-count'");
    }

    @Test
    void tellsThePeWhichOperatorAndSubtaskItRunsIn() {
        try (var driver = PeTestDriver.<Object, Object>of(init -> {
            String where = init.operator().operatorId() + "#" + init.operator().subtask() + "/"
                    + init.operator().parallelism() + " key " + init.key();
            return (event, context) -> context.emit(where);
        }).operator("counter", 2, 4).build()) {
            driver.send("k", 1L);

            assertThat(driver.outputValues()).containsExactly("counter#2/4 key k");
        }
    }
}
