package io.steadfast.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class TopologySpecReaderTest {

    private final TopologySpecReader reader = new TopologySpecReader();

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    @Test
    void readsSpecAndAppliesDefaultsForAbsentFields() {
        TopologySpec spec = reader.read(json("""
                {'id': 'word-count', 'operators': [
                  {'id': 'source', 'type': 'generator', 'parallelism': 2, 'config': {'count': 10}},
                  {'id': 'sink', 'type': 'log-sink', 'inputs': [{'from': 'source'}]}
                ]}"""));

        assertThat(spec.topologyId()).isEqualTo(new TopologyId("word-count"));
        OperatorSpec source = spec.operators().get(0);
        assertThat(source.operatorId()).isEqualTo(new OperatorId("source"));
        assertThat(source.parallelism()).isEqualTo(2);
        assertThat(source.inputs()).isEmpty();
        assertThat(source.config().get("count").asInt()).isEqualTo(10);
        OperatorSpec sink = spec.operators().get(1);
        assertThat(sink.parallelism()).isEqualTo(1);
        assertThat(sink.config().isObject()).isTrue();
        assertThat(sink.config().isEmpty()).isTrue();
        assertThat(sink.inputs()).containsExactly(new InputSpec("source", Partitioning.KEY));
    }

    @Test
    void acceptsPartitioningInJsonUpperCaseAndUnderscoreForms() {
        TopologySpec spec = reader.read(json("""
                {'id': 't', 'operators': [{'id': 'x', 'type': 'map', 'inputs': [
                  {'from': 'a', 'partitioning': 'round-robin'}, {'from': 'b', 'partitioning': 'ROUND_ROBIN'},
                  {'from': 'c', 'partitioning': 'round_robin'}, {'from': 'd', 'partitioning': 'BROADCAST'},
                  {'from': 'e', 'partitioning': 'key'}]}]}"""));

        assertThat(spec.operators().get(0).inputs()).extracting(InputSpec::partitioning).containsExactly(
                Partitioning.ROUND_ROBIN, Partitioning.ROUND_ROBIN, Partitioning.ROUND_ROBIN, Partitioning.BROADCAST,
                Partitioning.KEY);
    }

    @Test
    void keepsInvalidIdsAndMissingTypesForTheValidatorToReport() {
        TopologySpec spec = reader.read(json("{'id': 'Bad Id', 'operators': [{'id': 'no good!'}]}"));

        assertThat(spec.id()).isEqualTo("Bad Id");
        assertThat(spec.operators().get(0).id()).isEqualTo("no good!");
        assertThat(spec.operators().get(0).type()).isNull();
    }

    @Test
    void rejectsUnknownFieldNamingItsPathAndTheKnownFields() {
        Violation violation = singleViolation(json("""
                {'id': 't', 'operators': [{'id': 'a', 'type': 'generator'},
                  {'id': 'b', 'type': 'map', 'parallelizm': 2}]}"""));

        assertThat(violation.field()).isEqualTo("operators[1].parallelizm");
        assertThat(violation.message()).contains("'parallelizm' is not a known field")
                .contains("config, id, inputs, parallelism, type");
    }

    @Test
    void rejectsWrongValueTypeNamingItsPathAndWhatWasExpected() {
        Violation violation = singleViolation(json("""
                {'id': 't', 'operators': [{'id': 'a', 'type': 'generator'},
                  {'id': 'b', 'type': 'map', 'parallelism': 'two'}]}"""));

        assertThat(violation.field()).isEqualTo("operators[1].parallelism");
        assertThat(violation.message()).startsWith("parallelism: expected an integer");
    }

    @Test
    void rejectsNumericStringAndDecimalParallelismRatherThanCoercing() {
        assertThat(singleViolation(json("{'id': 't', 'operators': [{'id': 'a', 'parallelism': '2'}]}")).field())
                .isEqualTo("operators[0].parallelism");
        assertThat(singleViolation(json("{'id': 't', 'operators': [{'id': 'a', 'parallelism': 1.5}]}")).field())
                .isEqualTo("operators[0].parallelism");
    }

    @Test
    void rejectsUnknownPartitioningListingTheAcceptedOnes() {
        Violation violation = singleViolation(json("""
                {'id': 't', 'operators': [{'id': 'a', 'inputs': [{'from': 'b', 'partitioning': 'hash'}]}]}"""));

        assertThat(violation.field()).isEqualTo("operators[0].inputs[0].partitioning");
        assertThat(violation.message()).contains("'hash'").contains("key, round-robin, broadcast");
    }

    @Test
    void rejectsOperatorsThatIsNotAnArray() {
        Violation violation = singleViolation(json("{'id': 't', 'operators': {'id': 'a'}}"));

        assertThat(violation.field()).isEqualTo("operators");
        assertThat(violation.message()).contains("expected an array");
    }

    @Test
    void rejectsMalformedJsonSayingWhere() {
        Violation violation = singleViolation("{\"id\": \"t\", \"operators\": [");

        assertThat(violation.message()).contains("malformed JSON");
    }

    @Test
    void rejectsNullDocument() {
        assertThat(singleViolation("null").message()).contains("null");
    }

    @Test
    void rejectsSpecOverTheSizeLimitBeforeParsingIt() {
        TopologySpecReader small = new TopologySpecReader(100);
        String notEvenJson = "x".repeat(101);

        Violation violation = only(catchThrowableOfType(TopologyValidationException.class,
                () -> small.read(notEvenJson)));

        assertThat(violation.field()).isEmpty();
        assertThat(violation.message()).contains("101 bytes").contains("limit of 100 bytes");
    }

    @Test
    void rejectsStreamOverTheSizeLimitWithoutReadingItAll() {
        TopologySpecReader small = TopologySpecReader.withLimits(TopologyLimits.defaults().withMaxSpecBytes(10));
        var in = new ByteArrayInputStream("y".repeat(1000).getBytes(StandardCharsets.UTF_8));

        Violation violation = only(catchThrowableOfType(TopologyValidationException.class, () -> small.read(in)));

        assertThat(violation.message()).contains("11 bytes").contains("limit of 10 bytes");
    }

    @Test
    void writesSpecThatReadsBackEqual() {
        TopologySpec spec = reader.read(json("""
                {'id': 't', 'checkpointing': {'intervalMs': 2000}, 'operators': [{'id': 'a', 'type': 'generator', 'config': {'keys': 5}},
                  {'id': 'b', 'type': 'log-sink', 'inputs': [{'from': 'a', 'partitioning': 'broadcast'}]}]}"""));

        String written = JsonMapper.builder().build().writeValueAsString(spec);

        assertThat(written).contains("\"broadcast\"").doesNotContain("operatorId").doesNotContain("topologyId");
        assertThat(reader.read(written)).isEqualTo(spec);
        assertThat(reader.read(written).checkpointing().intervalMs()).isEqualTo(2000L);
    }

    @Test
    void readsTheCheckpointingSectionAndLeavesAbsentSettingsToTheRouter() {
        TopologySpec spec = reader.read(json("""
                {'id': 't', 'checkpointing': {'intervalMs': 250, 'maxConcurrent': 2},
                 'operators': [{'id': 'a', 'type': 'generator'}]}"""));

        assertThat(spec.checkpointing()).isEqualTo(new CheckpointingSpec(250L, null, 2));
        assertThat(spec.checkpointing().interval()).contains(Duration.ofMillis(250));
        assertThat(spec.checkpointing().timeout()).isEmpty();
        assertThat(reader.read(json("{'id': 't', 'operators': []}")).checkpointing())
                .isEqualTo(CheckpointingSpec.DEFAULTS);
        assertThat(reader.read(json("{'id': 't', 'checkpointing': null, 'operators': []}")).checkpointing())
                .isEqualTo(CheckpointingSpec.DEFAULTS);
    }

    @Test
    void readsTheRecoverySectionAndDefaultsToLocalRecovery() {
        TopologySpec global = reader.read(json("""
                {'id': 't', 'recovery': {'mode': 'global'}, 'operators': [{'id': 'a', 'type': 'generator'}]}"""));
        TopologySpec absent = reader.read(json("{'id': 't', 'operators': []}"));

        assertThat(global.recovery().normalizedMode()).isEqualTo("GLOBAL");
        assertThat(absent.recovery()).isEqualTo(RecoverySpec.DEFAULTS);
        assertThat(absent.recovery().normalizedMode()).isEqualTo("LOCAL");
        assertThat(reader.read(json("{'id': 't', 'recovery': {'mode': 'lOcAl'}, 'operators': []}")).recovery()
                .normalizedMode()).isEqualTo("LOCAL");
    }

    @Test
    void rejectsAnUnknownCheckpointingFieldNamingItsPathAndTheKnownOnes() {
        Violation violation = singleViolation(json("""
                {'id': 't', 'checkpointing': {'interval': 250}, 'operators': []}"""));

        assertThat(violation.field()).isEqualTo("checkpointing.interval");
        assertThat(violation.message()).contains("'interval' is not a known field")
                .contains("intervalMs, maxConcurrent, timeoutMs");
    }

    @Test
    void rejectsACheckpointIntervalThatIsNotAnInteger() {
        Violation text = singleViolation(json("{'id': 't', 'checkpointing': {'intervalMs': '1s'}, 'operators': []}"));
        Violation decimal = singleViolation(json("{'id': 't', 'checkpointing': {'intervalMs': 1.5}, 'operators': []}"));
        Violation notAnObject = singleViolation(json("{'id': 't', 'checkpointing': 1000, 'operators': []}"));

        assertThat(text.field()).isEqualTo("checkpointing.intervalMs");
        assertThat(text.message()).contains("expected an integer");
        assertThat(decimal.field()).isEqualTo("checkpointing.intervalMs");
        assertThat(notAnObject.field()).isEqualTo("checkpointing");
        assertThat(notAnObject.message()).contains("expected an object");
    }

    @Test
    void readsAStoredJsonTreeLikeTheTextItCameFrom() {
        String text = json("""
                {'id': 't', 'checkpointing': {'intervalMs': 3000, 'timeoutMs': 500},
                 'operators': [{'id': 'a', 'type': 'generator', 'parallelism': 2}]}""");

        TopologySpec fromTree = reader.read(JsonMapper.builder().build().readTree(text));

        assertThat(fromTree).isEqualTo(reader.read(text));
        assertThat(fromTree.checkpointing().timeout()).contains(Duration.ofMillis(500));
        Violation violation = only(catchThrowableOfType(TopologyValidationException.class, () -> reader.read(
                JsonMapper.builder().build().readTree(json("{'id': 't', 'checkpointing': {'intervalMs': 'x'}}")))));
        assertThat(violation.field()).isEqualTo("checkpointing.intervalMs");
    }

    private Violation singleViolation(String json) {
        return only(catchThrowableOfType(TopologyValidationException.class, () -> reader.read(json)));
    }

    private static Violation only(TopologyValidationException e) {
        assertThat(e).as("expected a TopologyValidationException").isNotNull();
        assertThat(e.violations()).hasSize(1);
        return e.violations().get(0);
    }
}
