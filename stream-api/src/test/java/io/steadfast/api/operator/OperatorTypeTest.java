package io.steadfast.api.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorTypeTest {

    private static final OperatorType<NoConfig> PROCESSOR = OperatorType.processor("my-op2", NoConfig.class,
            init -> (event, context) -> { }, "desc");

    @Test
    void describesAProcessor() {
        assertThat(PROCESSOR.name()).isEqualTo("my-op2");
        assertThat(PROCESSOR.role()).isEqualTo(OperatorRole.PROCESSOR);
        assertThat(PROCESSOR.configType()).isEqualTo(NoConfig.class);
        assertThat(PROCESSOR.peFactory()).isPresent();
        assertThat(PROCESSOR.sourceFactory()).isEmpty();
        assertThat(PROCESSOR.sharedInstance()).isFalse();
        assertThat(PROCESSOR.description()).isEqualTo("desc");
        assertThat(PROCESSOR).hasToString("operator type 'my-op2' (PROCESSOR)");
    }

    @Test
    void describesASourceAndASink() {
        OperatorType<NoConfig> source = OperatorType.source("src", NoConfig.class, init -> null, "s");
        OperatorType<NoConfig> sink = OperatorType.sink("out", NoConfig.class, init -> (event, context) -> { }, "o");

        assertThat(source.role()).isEqualTo(OperatorRole.SOURCE);
        assertThat(source.sourceFactory()).isPresent();
        assertThat(source.peFactory()).isEmpty();
        assertThat(sink.role()).isEqualTo(OperatorRole.SINK);
    }

    @Test
    void refusesNamesThatAreNotLowercaseDashed() {
        for (String bad : List.of("", "Map", "1map", "-map", "map_sum", "map sum", "a".repeat(64))) {
            assertThatThrownBy(() -> OperatorType.processor(bad, NoConfig.class, init -> null, "d"))
                    .as("name '%s'", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Operator type name '" + bad + "' is invalid");
        }
        assertThat(OperatorType.processor("a".repeat(63), NoConfig.class, init -> null, "d").name()).hasSize(63);
    }

    @Test
    void runsEveryValidatorInTheOrderAdded() {
        List<String> calls = new ArrayList<>();
        OperatorType<NoConfig> validated = PROCESSOR.withValidator(c -> calls.add("first"))
                .withValidator(c -> calls.add("second"));

        validated.validator().accept(new NoConfig());

        assertThat(calls).containsExactly("first", "second");
    }

    @Test
    void keepsValidatorsAndSharingAcrossCopies() {
        List<String> calls = new ArrayList<>();

        OperatorType<NoConfig> shared = PROCESSOR.withValidator(c -> calls.add("v")).withSharedInstance();
        shared.validator().accept(new NoConfig());

        assertThat(shared.sharedInstance()).isTrue();
        assertThat(PROCESSOR.sharedInstance()).isFalse();
        assertThat(calls).containsExactly("v");
    }

    @Test
    void isKeyedWhenAProcessorOrSinkKeepsAnInstancePerKey() {
        OperatorType<NoConfig> source = OperatorType.source("src", NoConfig.class, init -> null, "s");
        OperatorType<NoConfig> sink = OperatorType.sink("out", NoConfig.class, init -> (event, context) -> { }, "o");

        assertThat(PROCESSOR.keyed()).isTrue();
        assertThat(sink.keyed()).isTrue();
        assertThat(PROCESSOR.withSharedInstance().keyed()).isFalse();
        assertThat(sink.withSharedInstance().keyed()).isFalse();
        assertThat(source.keyed()).isFalse();
    }

    @Test
    void namesTheFieldOfAConfigException() {
        ConfigException error = new ConfigException("windowMillis", "must be >= 1");

        assertThat(error.field()).isEqualTo("windowMillis");
        assertThat(error).hasMessage("must be >= 1");
    }
}
