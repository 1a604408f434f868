package io.steadfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.Event;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.operator.builtin.FilterConfig;
import io.steadfast.runtime.operator.builtin.LogSinkConfig;
import io.steadfast.runtime.operator.builtin.MapConfig;
import io.steadfast.runtime.operator.builtin.WindowSumConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuiltinOperatorsTest {

    static final OperatorRegistry REGISTRY = OperatorRegistry.of(List.of());

    @SuppressWarnings("unchecked")
    static <O, C> PeTestDriver.Builder<Object, O, C> builtIn(String name, C config) {
        return PeTestDriver.forType((OperatorType<C>) REGISTRY.require(name), config);
    }

    @Test
    void keyedCountCountsPerKey() {
        try (PeTestDriver<Long> driver = BuiltinOperatorsTest.<Long, NoConfig>builtIn(BuiltinOperators.KEYED_COUNT,
                new NoConfig()).build()) {
            driver.send("a", "x").send("b", 1L).send("a", null).send("a", 2.0);

            assertThat(driver.outputs()).extracting(Event::key, Event::value).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("a", 1L), org.assertj.core.groups.Tuple.tuple("b", 1L),
                    org.assertj.core.groups.Tuple.tuple("a", 2L), org.assertj.core.groups.Tuple.tuple("a", 3L));
            assertThat(driver.state("count", "a")).contains(3L);
            assertThat(driver.state("count", "b")).contains(1L);
        }
    }

    @Test
    void windowSumSumsPerWindowAndKeyAndEmitsOnTheWatermarkAtTheWindowsLastMillisecond() {
        try (PeTestDriver<Object> driver = windowSum(10)) {
            driver.send("a", 1L, 0).send("b", 100L, 3).send("a", 2, 9).send("a", 4L, 10).send("b", 7L, 15);

            driver.advanceWatermark(8);
            List<Object> beforeFirstEnd = driver.outputValues();
            driver.advanceWatermark(9);
            List<Event<Object>> firstWindow = driver.outputs();
            driver.clearOutputs().advanceWatermark(19);

            assertThat(beforeFirstEnd).isEmpty();
            assertThat(firstWindow).containsExactly(Event.of("a", 3L, 9), Event.of("b", 100L, 9));
            assertThat(driver.outputs()).containsExactly(Event.of("a", 4L, 19), Event.of("b", 7L, 19));
        }
    }

    @Test
    void windowSumHandlesNegativeEventTimes() {
        try (PeTestDriver<Object> driver = windowSum(10)) {
            driver.send("a", 1L, -1).send("a", 2L, -10).send("a", 4L, 0);

            driver.advanceWatermark(Long.MAX_VALUE);

            assertThat(driver.outputs()).containsExactly(Event.of("a", 3L, -1), Event.of("a", 4L, 9));
        }
    }

    @Test
    void windowSumKeepsLongSumsIntegralAndTurnsToDoubleOnceADoubleArrives() {
        try (PeTestDriver<Object> driver = windowSum(100)) {
            driver.send("longs", 1L, 1).send("longs", Integer.MAX_VALUE, 2).send("longs", Integer.MAX_VALUE, 3);
            driver.send("mixed", 1L, 1).send("mixed", 0.5, 2).send("mixed", 2L, 3);
            driver.send("doubles", 0.25, 1).send("doubles", 0.25, 2);

            driver.advanceWatermark(99);

            assertThat(driver.latestOutputByKey()).containsExactly(
                    Map.entry("longs", 1L + 2L * Integer.MAX_VALUE), Map.entry("mixed", 3.5),
                    Map.entry("doubles", 0.5)); // windows closing together fire in the order they opened
            assertThat(driver.latestOutputByKey().get("longs")).isInstanceOf(Long.class);
            assertThat(driver.latestOutputByKey().get("mixed")).isInstanceOf(Double.class);
        }
    }

    @Test
    void windowSumDropsEventsForWindowsTheWatermarkHasClosed() {
        try (PeTestDriver<Object> driver = windowSum(10)) {
            driver.send("a", 1L, 5).advanceWatermark(9);

            driver.send("a", 100L, 2).send("a", 1000L, 9).send("a", 5L, 10);
            driver.advanceWatermark(19);

            assertThat(driver.outputs()).containsExactly(Event.of("a", 1L, 9), Event.of("a", 5L, 19));
            assertThat(driver.state("sums", "a")).isEmpty();
        }
    }

    @Test
    void windowSumRejectsNonNumericValuesSayingWhatToDo() {
        try (PeTestDriver<Object> driver = windowSum(10)) {
            assertThatThrownBy(() -> driver.send("k", "seven", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("window-sum needs numeric values, but key 'k' got java.lang.String")
                    .hasMessageContaining("put a map operator in front");
            assertThatThrownBy(() -> driver.send("k", null, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got null");
        }
    }

    private static PeTestDriver<Object> windowSum(long windowMillis) {
        return BuiltinOperatorsTest.<Object, WindowSumConfig>builtIn(BuiltinOperators.WINDOW_SUM,
                new WindowSumConfig(windowMillis)).build();
    }

    @Test
    void mapAppliesBuiltInFunctionsKeepingKeyTimeAndHeaders() {
        Map<String, List<Object>> results = new java.util.LinkedHashMap<>();
        for (String function : List.of("identity", "uppercase", "lowercase", "to-string", "length", "double",
                "negate", "square")) {
            try (PeTestDriver<Object> driver = BuiltinOperatorsTest.<Object, MapConfig>builtIn(BuiltinOperators.MAP,
                    new MapConfig(function)).build()) {
                driver.send("k", "aB", 1).send("k", 3L, 2).send("k", 2, 3).send("k", 1.5, 4);
                results.put(function, driver.outputValues());
            }
        }

        assertThat(results).containsExactly(
                Map.entry("identity", List.of("aB", 3L, 2, 1.5)),
                Map.entry("uppercase", List.of("AB", "3", "2", "1.5")),
                Map.entry("lowercase", List.of("ab", "3", "2", "1.5")),
                Map.entry("to-string", List.of("aB", "3", "2", "1.5")),
                Map.entry("length", List.of(2L, 1L, 1L, 3L)),
                Map.entry("double", List.of("aB", 6L, 4L, 3.0)),
                Map.entry("negate", List.of("aB", -3L, -2L, -1.5)),
                Map.entry("square", List.of("aB", 9L, 4L, 2.25)));
    }

    @Test
    void mapKeepsTheEventsKeyTimeAndHeaders() {
        try (PeTestDriver<Object> driver = BuiltinOperatorsTest.<Object, MapConfig>builtIn(BuiltinOperators.MAP,
                new MapConfig("uppercase")).build()) {
            driver.send(Event.of("k", "v", 42).withHeader("h", "1"));

            assertThat(driver.outputs()).containsExactly(Event.<Object>of("k", "V", 42).withHeader("h", "1"));
        }
    }

    @Test
    void filterKeepsTheEventsItsPredicateHolds() {
        Map<String, List<Object>> results = new java.util.LinkedHashMap<>();
        for (String predicate : List.of("all", "none", "non-null", "even", "odd", "positive")) {
            try (PeTestDriver<Object> driver = BuiltinOperatorsTest.<Object, FilterConfig>builtIn(
                    BuiltinOperators.FILTER, new FilterConfig(predicate)).build()) {
                driver.send("k", 2L).send("k", -3).send("k", null).send("k", "s").send("k", 4.0);
                results.put(predicate, driver.outputValues());
            }
        }

        assertThat(results).containsExactly(
                Map.entry("all", java.util.Arrays.asList(2L, -3, null, "s", 4.0)),
                Map.entry("none", List.of()),
                Map.entry("non-null", List.of(2L, -3, "s", 4.0)),
                Map.entry("even", List.of(2L, 4.0)),
                Map.entry("odd", List.of(-3)),
                Map.entry("positive", List.of(2L, 4.0)));
    }

    @Test
    void logSinkAcceptsEveryKindOfValueAndEmitsNothing() {
        try (PeTestDriver<Void> driver = BuiltinOperatorsTest.<Void, LogSinkConfig>builtIn(BuiltinOperators.LOG_SINK,
                new LogSinkConfig(2L)).build()) {
            driver.send("a", 1L).send("b", null).send("c", "s").send("d", new byte[] {1}).send("e", 2.5);

            assertThat(driver.outputs()).isEmpty();
            assertThat(driver.keyCount()).isZero();
        }
    }

    @Test
    void latestValueSinkKeepsTheLatestValuePerKey() {
        try (PeTestDriver<Void> driver = BuiltinOperatorsTest.<Void, NoConfig>builtIn(
                BuiltinOperators.LATEST_VALUE_SINK, new NoConfig()).build()) {
            driver.send("a", 1L).send("b", "x").send("a", 2.5).send("b", null);

            assertThat(driver.state("latest", "a")).contains(2.5);
            assertThat(driver.state("latest", "b")).isEmpty();
            assertThat(driver.outputs()).isEmpty();
        }
    }
}
