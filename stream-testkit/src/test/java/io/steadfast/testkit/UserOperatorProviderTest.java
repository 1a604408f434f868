package io.steadfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.operator.ConfigException;
import io.steadfast.api.operator.MapFunction;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.api.state.ValueState;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.operator.builtin.MapConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** A user's OperatorProvider, registered with OperatorRegistry.of, runs end to end through PeTestDriver. */
class UserOperatorProviderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Config of the user's threshold operator, with a default and a rule. */
    record ThresholdConfig(Long threshold) {
        ThresholdConfig {
            threshold = threshold == null ? 10L : threshold;
        }
    }

    /** Emits the running sum of its key each time it crosses the threshold. */
    static final class Threshold implements ProcessingElement<Object, Object> {
        private final long threshold;
        private final ValueState<Long> sum;

        Threshold(PeInit<ThresholdConfig> init) {
            threshold = init.config().threshold();
            sum = init.state().valueState("sum", Codecs.LONG);
        }

        @Override
        public void process(Event<Object> event, PeContext<Object> context) {
            long before = sum.valueOr(0L);
            long after = before + ((Number) event.value()).longValue();
            sum.update(after);
            if (before / threshold != after / threshold) {
                context.emit(after);
            }
        }
    }

    static final class UserProvider implements OperatorProvider {
        @Override
        public List<OperatorType<?>> operatorTypes() {
            return List.of(
                    OperatorType.processor("threshold", ThresholdConfig.class, Threshold::new, "user")
                            .withValidator(config -> {
                                if (config.threshold() < 1) {
                                    throw new ConfigException("threshold", "threshold must be >= 1, was "
                                            + config.threshold());
                                }
                            }),
                    OperatorType.processor("stateful-shared", NoConfig.class, init -> {
                        init.state().valueState("oops", Codecs.LONG);
                        return (event, context) -> { };
                    }, "user").withSharedInstance());
        }

        @Override
        public Map<String, MapFunction> mapFunctions() {
            return Map.of("half", (key, value) -> ((Number) value).longValue() / 2);
        }
    }

    private final OperatorRegistry registry = OperatorRegistry.of(List.of(new UserProvider()));

    @SuppressWarnings("unchecked")
    private PeTestDriver<Object> driverFor(String type, String jsonConfig) {
        Object config = registry.bindConfig(type, JSON.readTree(jsonConfig));
        return PeTestDriver.forType((OperatorType<Object>) registry.require(type), config).build();
    }

    @Test
    void runsAUserOperatorTypeWithItsBoundConfig() {
        try (PeTestDriver<Object> driver = driverFor("threshold", "{\"threshold\": 5}")) {
            driver.send("a", 3L).send("a", 3L).send("b", 7L).send("a", 1L).send("a", 4L);

            assertThat(driver.outputs()).extracting(Event::key).containsExactly("a", "b", "a");
            assertThat(driver.outputValues()).containsExactly(6L, 7L, 11L);
        }
    }

    @Test
    void appliesTheUserConfigsDefaultAndSurvivesRestore() {
        PeTestDriver<Object> first = driverFor("threshold", "{}");
        first.send("a", 9L);

        @SuppressWarnings("unchecked")
        PeTestDriver<Object> restored = PeTestDriver.forType(
                (OperatorType<Object>) registry.require("threshold"), registry.bindConfig("threshold", null))
                .restoreFrom(first.snapshot()).build();
        restored.send("a", 1L);

        assertThat(first.outputValues()).isEmpty();
        assertThat(restored.outputValues()).containsExactly(10L);
    }

    @Test
    void rejectsAUserConfigThroughTheUsersValidator() {
        assertThatThrownBy(() -> registry.bindConfig("threshold", JSON.readTree("{\"threshold\": 0}")))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.field()).isEqualTo("threshold"))
                .hasMessage("threshold must be >= 1, was 0");
    }

    @Test
    void letsTheBuiltInMapApplyAUserFunction() {
        try (PeTestDriver<Object> driver = driverFor("map", "{\"function\": \"half\"}")) {
            driver.send("a", 9L);

            assertThat(driver.outputValues()).containsExactly(4L);
        }
        assertThat(registry.bindConfig("map", JSON.readTree("{\"function\": \"half\"}")))
                .isEqualTo(new MapConfig("half"));
    }

    @Test
    void refusesStateInASharedInstanceOperatorWhenTheDriverIsBuilt() {
        assertThatThrownBy(() -> driverFor("stateful-shared", "{}"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("State 'oops' cannot be declared")
                .hasMessageContaining("shares one PE instance across keys");
    }
}
