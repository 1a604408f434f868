package io.steadfast.runtime.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.operator.ConfigException;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.operator.builtin.GeneratorConfig;
import io.steadfast.runtime.operator.builtin.WindowSumConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ConfigBinderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ConfigBinder binder = new ConfigBinder();
    private final OperatorType<GeneratorConfig> generator = OperatorType.source("gen", GeneratorConfig.class,
            init -> null, "test");

    /** A nested config, to check that field paths name the nesting. */
    record Nested(Inner inner, List<Long> sizes) {
        record Inner(Long limit) {
        }
    }

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    private static ConfigException configError(Runnable bind) {
        try {
            bind.run();
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("expected a ConfigException");
    }

    @Test
    void appliesDefaultsForMissingFields() {
        GeneratorConfig bound = binder.bind(generator, json("{\"count\": 5}"));

        assertThat(bound).isEqualTo(new GeneratorConfig(5L, 1_000, 0L, 1_700_000_000_000L, 1L, "key-"));
    }

    @Test
    void bindsAMissingOrNullConfigAsAllDefaults() {
        assertThat(binder.bind(generator, null)).isEqualTo(GeneratorConfig.defaults());
        assertThat(binder.bind(generator, json("null"))).isEqualTo(GeneratorConfig.defaults());
        assertThat(binder.bind(generator, json("{}"))).isEqualTo(GeneratorConfig.defaults());
    }

    @Test
    void bindsAnEmptyRecord() {
        OperatorType<NoConfig> type = OperatorType.processor("p", NoConfig.class, init -> null, "test");

        assertThat(binder.bind(type, json("{}"))).isEqualTo(new NoConfig());
    }

    @Test
    void rejectsAnUnknownFieldNamingIt() {
        ConfigException error = configError(() -> binder.bind(generator, json("{\"count\": 5, \"cuont\": 6}")));

        assertThat(error.field()).isEqualTo("cuont");
        assertThat(error.getMessage()).contains("cuont");
    }

    @Test
    void rejectsAValueOfTheWrongTypeNamingTheField() {
        ConfigException error = configError(() -> binder.bind(generator, json("{\"count\": \"abc\"}")));

        assertThat(error.field()).isEqualTo("count");
        assertThat(error.getMessage()).contains("abc");
    }

    @Test
    void rejectsAFractionForAnIntegralFieldRatherThanTruncatingIt() {
        ConfigException error = configError(() -> binder.bind(generator, json("{\"count\": 1.5}")));

        assertThat(error.field()).isEqualTo("count");
    }

    @Test
    void namesTheFieldPathOfANestedError() {
        OperatorType<Nested> type = OperatorType.processor("nested", Nested.class, init -> null, "test");

        ConfigException inner = configError(() -> binder.bind(type, json("{\"inner\": {\"limit\": \"x\"}}")));
        ConfigException element = configError(() -> binder.bind(type, json("{\"sizes\": [1, \"y\"]}")));

        assertThat(inner.field()).isEqualTo("inner.limit");
        assertThat(element.field()).isEqualTo("sizes[1]");
    }

    @Test
    void passesOnTheRecordsOwnConfigExceptions() {
        ConfigException keys = configError(() -> binder.bind(generator, json("{\"keys\": 0}")));
        ConfigException window = configError(() -> binder.bind(
                OperatorType.processor("w", WindowSumConfig.class, init -> null, "test"),
                json("{\"windowMillis\": 0}")));

        assertThat(keys.field()).isEqualTo("keys");
        assertThat(keys.getMessage()).isEqualTo("keys must be >= 1, was 0");
        assertThat(window.field()).isEqualTo("windowMillis");
        assertThat(window.getMessage()).isEqualTo("windowMillis must be >= 1, was 0");
    }

    @Test
    void runsTheTypesValidatorAfterBinding() {
        OperatorType<GeneratorConfig> validated = generator.withValidator(config -> {
            if (config.count() > 10) {
                throw new ConfigException("count", "at most 10 here, was " + config.count());
            }
        });

        ConfigException error = configError(() -> binder.bind(validated, json("{\"count\": 11}")));

        assertThat(error.field()).isEqualTo("count");
        assertThat(error.getMessage()).isEqualTo("at most 10 here, was 11");
        assertThat(binder.bind(validated, json("{\"count\": 10}")).count()).isEqualTo(10L);
    }

    @Test
    void rejectsAConfigThatIsNotAnObject() {
        ConfigException error = configError(() -> binder.bind(generator, json("[1]")));

        assertThat(error.field()).isEqualTo("config");
        assertThat(error.getMessage()).contains("'gen'").contains("must be a JSON object, was array");
    }
}
