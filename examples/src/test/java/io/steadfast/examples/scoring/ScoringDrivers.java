package io.steadfast.examples.scoring;

import io.steadfast.api.Event;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.examples.ExampleOperators;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.operator.builtin.GeneratorConfig;
import io.steadfast.testkit.PeTestDriver;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scoring versions under {@link PeTestDriver}, their configs bound from JSON by the registry a host builds with the
 * examples' provider, and the built-in generator's events to feed them.
 */
final class ScoringDrivers {

    static final OperatorRegistry REGISTRY = OperatorRegistry.of(List.of(new ExampleOperators()));
    static final List<String> VERSIONS = List.of(ScoringVersions.FORMULA, ScoringVersions.TABLE,
            ScoringVersions.ITERATIVE);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ScoringDrivers() {
    }

    /**
     * A driver builder for one version, as subtask {@code subtask} of operator {@code operatorId}. One-shot faults
     * count inputs per task for the life of the JVM, so a test that injects one names its own operator.
     */
    @SuppressWarnings("unchecked")
    static PeTestDriver.Builder<Object, Long, Object> version(String type, String jsonConfig, String operatorId,
                                                             int subtask) {
        Object config = REGISTRY.bindConfig(type, JSON.readTree(jsonConfig));
        return PeTestDriver.<Long, Object>forType((OperatorType<Object>) REGISTRY.require(type), config)
                .operator(operatorId, subtask, 2);
    }

    /** The first {@code count} events of a generator of {@code keys} keys, as its subtask 0 of 1 emits them. */
    static List<Event<Object>> generatorEvents(int count, int keys) {
        GeneratorConfig config = new GeneratorConfig((long) count, keys, null, null, null, null);
        List<Event<Object>> events = new ArrayList<>(count);
        for (long index = 0; index < count; index++) {
            events.add(Event.of(config.keyOf(index), GeneratorConfig.valueOf(index),
                    config.startTime() + index * config.eventTimeStepMillis()));
        }
        return events;
    }

    /** Sends every event and returns the values emitted, in order. */
    static List<Long> scores(PeTestDriver<Long> driver, List<Event<Object>> events) {
        events.forEach(driver::send);
        return driver.outputValues();
    }
}
