package io.steadfast.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.steadfast.api.operator.OperatorRole;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;
import org.assertj.core.api.ListAssert;
import org.junit.jupiter.api.Test;

class TopologyValidatorTest {

    private final TopologyValidator validator = new TopologyValidator(FakeOperatorCatalog.builtIns());

    private static Specs valid() {
        return Specs.topology("t").op("source", "generator", 2).op("count", "keyed-count", 2, "source")
                .op("sink", "latest-value-sink", 1, "count");
    }

    @Test
    void acceptsValidTopologyAndReturnsIt() {
        TopologySpec spec = valid().build();

        assertThat(validator.validate(spec)).isSameAs(spec);
    }

    @Test
    void rejectsMissingTopologyId() {
        TopologySpec spec = new TopologySpec(null, valid().build().operators());

        assertViolations(spec).containsExactly(violation(null, "id", "id is missing"));
    }

    @Test
    void rejectsInvalidTopologyId() {
        TopologySpec spec = new TopologySpec("Word Count", valid().build().operators());

        assertViolations(spec).singleElement().satisfies(v -> {
            assertThat(v.operator()).isNull();
            assertThat(v.field()).isEqualTo("id");
            assertThat(v.message()).contains("'Word Count'").contains("lowercase");
        });
    }

    @Test
    void rejectsTopologyWithoutOperators() {
        assertViolations(Specs.topology("t").build())
                .containsExactly(violation(null, "operators", "operators is empty"));
    }

    @Test
    void rejectsMoreOperatorsThanTheLimit() {
        TopologyValidator strict = new TopologyValidator(FakeOperatorCatalog.builtIns(), new TopologyLimits(2, 8, 8, 4, 1000, 64));

        assertThat(strict.violationsOf(valid().build())).singleElement().satisfies(v -> {
            assertThat(v.operator()).isNull();
            assertThat(v.field()).isEqualTo("operators");
            assertThat(v.message()).contains("3 entries").contains("limit of 2").contains("maxOperators");
        });
    }

    @Test
    void rejectsMissingOperatorId() {
        TopologySpec spec = valid().op(null, "log-sink", 1, "count").build();

        assertViolations(spec).containsExactly(violation(null, "operators[3].id", "id is missing"));
    }

    @Test
    void rejectsInvalidOperatorId() {
        TopologySpec spec = valid().op("log sink!", "log-sink", 1, "count").build();

        assertViolations(spec).singleElement().satisfies(v -> {
            assertThat(v.operator()).isEqualTo("log sink!");
            assertThat(v.field()).isEqualTo("operators[3].id");
            assertThat(v.message()).contains("'log sink!' is invalid");
        });
    }

    @Test
    void rejectsDuplicateOperatorIdNamingTheDuplicate() {
        TopologySpec spec = valid().op("count", "log-sink", 1, "source").build();

        assertViolations(spec).containsExactly(
                violation("count", "operators[3].id", "id 'count' is already used by operators[1]"));
    }

    @Test
    void rejectsUnknownTypeListingTheKnownTypesSorted() {
        TopologySpec spec = valid().op("extra", "kyed-count", 1, "count").build();

        assertViolations(spec).singleElement().satisfies(v -> {
            assertThat(v.operator()).isEqualTo("extra");
            assertThat(v.field()).isEqualTo("operators[3].type");
            assertThat(v.message()).isEqualTo("type 'kyed-count' is unknown; known types: filter, generator, "
                    + "keyed-count, latest-value-sink, log-sink, map, window-sum");
        });
    }

    @Test
    void rejectsMissingType() {
        TopologySpec spec = valid().op("extra", null, 1, "count").build();

        assertViolations(spec).containsExactly(
                violation("extra", "operators[3].type", "type is missing; known types: filter"));
    }

    @Test
    void rejectsParallelismBelowOne() {
        TopologySpec spec = valid().op("extra", "log-sink", 0, "count").build();

        assertViolations(spec).containsExactly(
                violation("extra", "operators[3].parallelism", "parallelism 0 is out of range; use 1..1024"));
    }

    @Test
    void rejectsParallelismAboveTheLimit() {
        TopologySpec spec = valid().op("extra", "log-sink", 1025, "count").build();

        assertViolations(spec).containsExactly(
                violation("extra", "operators[3].parallelism", "parallelism 1025 is out of range; use 1..1024"));
    }

    @Test
    void rejectsMoreTasksInTotalThanTheLimit() {
        Specs specs = Specs.topology("t").op("source", "generator", 1);
        IntStream.range(0, 5).forEach(i -> specs.op("sink" + i, "log-sink", 1000, "source"));

        assertViolations(specs.build()).singleElement().satisfies(v -> {
            assertThat(v.operator()).isNull();
            assertThat(v.field()).isEqualTo("operators");
            assertThat(v.message()).contains("5001 tasks").contains("limit of 4096").contains("maxTotalTasks");
        });
    }

    @Test
    void rejectsTopologyWhoseInputNamesUnknownOperator() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 1).op("count", "keyed-count", 1, "sorce")
                .op("sink", "log-sink", 1, "count").build();

        assertViolations(spec).containsExactly(violation("count", "operators[1].inputs[0].from",
                "inputs[0].from 'sorce' names no operator; known operators: count, sink, source"));
    }

    @Test
    void rejectsInputWithoutFrom() {
        TopologySpec spec = valid().opWith("extra", "log-sink", 1, "{}", new InputSpec(null, Partitioning.KEY)).build();

        assertViolations(spec).containsExactly(
                violation("extra", "operators[3].inputs[0].from", "inputs[0].from is missing; known operators"));
    }

    @Test
    void rejectsOperatorThatReadsItsOwnOutput() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 1).opWith("loop", "map", 1, "{'function': 'f'}",
                InputSpec.byKey("source"), InputSpec.byKey("loop")).op("sink", "log-sink", 1, "loop").build();

        assertViolations(spec).containsExactly(
                violation("loop", "operators[1].inputs[1].from", "inputs[1].from 'loop' is the operator itself"));
    }

    @Test
    void rejectsSecondInputFromTheSameOperator() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 1).opWith("sink", "log-sink", 1, "{}",
                InputSpec.byKey("source"), new InputSpec("source", Partitioning.BROADCAST)).build();

        assertViolations(spec).containsExactly(
                violation("sink", "operators[1].inputs[1].from", "inputs[1].from 'source' repeats inputs[0]"));
    }

    @Test
    void rejectsMoreInputsThanTheLimit() {
        TopologyValidator strict = new TopologyValidator(FakeOperatorCatalog.builtIns(), new TopologyLimits(16, 8, 64, 2, 1000, 64));
        TopologySpec spec = Specs.topology("t").op("a", "generator", 1).op("b", "generator", 1)
                .op("c", "generator", 1).op("sink", "log-sink", 1, "a", "b", "c").build();

        assertThat(strict.violationsOf(spec)).singleElement().satisfies(v -> {
            assertThat(v.operator()).isEqualTo("sink");
            assertThat(v.field()).isEqualTo("operators[3].inputs");
            assertThat(v.message()).contains("3 entries").contains("limit of 2").contains("maxInputsPerOperator");
        });
    }

    @Test
    void rejectsSourceWithInputs() {
        TopologySpec spec = valid().op("second", "generator", 1, "source").build();

        assertViolations(spec).containsExactly(
                violation("second", "operators[3].inputs", "inputs: a source (type 'generator') takes no inputs"));
    }

    @Test
    void rejectsProcessorWithoutInputs() {
        TopologySpec spec = valid().op("lonely", "keyed-count", 1).build();

        assertViolations(spec).containsExactly(
                violation("lonely", "operators[3].inputs", "inputs is empty; a processor (type 'keyed-count')"));
    }

    @Test
    void rejectsSinkWithoutInputs() {
        TopologySpec spec = valid().op("lonely", "log-sink", 1).build();

        assertViolations(spec).containsExactly(
                violation("lonely", "operators[3].inputs", "inputs is empty; a sink (type 'log-sink')"));
    }

    @Test
    void rejectsInputFromASink() {
        TopologySpec spec = valid().op("after", "log-sink", 1, "sink").build();

        assertViolations(spec).containsExactly(violation("after", "operators[3].inputs[0].from",
                "inputs[0].from 'sink' is a sink (type 'latest-value-sink') and emits nothing"));
    }

    @Test
    void rejectsTopologyWithoutSource() {
        FakeOperatorCatalog catalog = FakeOperatorCatalog.builtIns()
                .with("replay", OperatorRole.PROCESSOR, Set.of(), Set.of(), Set.of());
        TopologySpec spec = Specs.topology("t").op("a", "replay", 1, "b").op("b", "replay", 1, "a")
                .op("sink", "log-sink", 1, "b").build();

        List<Violation> violations = new TopologyValidator(catalog).violationsOf(spec);

        assertThat(violations).usingElementComparator(BY_MESSAGE_START).contains(violation(null, "operators",
                "operators has no source, so nothing would flow; add an operator of a source type: generator"));
    }

    @Test
    void rejectsCycleNamingTheOperatorsOnItInOrder() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 1)
                .opWith("a", "map", 1, "{'function': 'f'}", InputSpec.byKey("source"), InputSpec.byKey("c"))
                .opWith("b", "map", 1, "{'function': 'f'}", InputSpec.byKey("a"))
                .opWith("c", "map", 1, "{'function': 'f'}", InputSpec.byKey("b"))
                .op("sink", "log-sink", 1, "c").build();

        assertViolations(spec).containsExactly(violation("a", "operators[1].inputs[1].from",
                "inputs[1].from 'c' closes a cycle: a -> b -> c -> a"));
    }

    @Test
    void reportsOneCycleForEachSeparateCycle() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 1)
                .op("a", "keyed-count", 1, "source", "b").op("b", "keyed-count", 1, "a")
                .op("x", "keyed-count", 1, "y", "source").op("y", "keyed-count", 1, "x")
                .op("sink", "log-sink", 1, "b", "y").build();

        assertThat(validator.violationsOf(spec)).extracting(Violation::message).containsExactly(
                "inputs[1].from 'b' closes a cycle: a -> b -> a; a topology must be acyclic, remove one of these inputs",
                "inputs[0].from 'y' closes a cycle: x -> y -> x; a topology must be acyclic, remove one of these inputs");
    }

    @Test
    void reportsConfigProblemsWithTheirConfigField() {
        TopologySpec spec = Specs.topology("t").opWith("source", "generator", 1, "{'count': -5}")
                .opWith("window", "window-sum", 1, "{'windowMillis': 'soon'}", InputSpec.byKey("source"))
                .op("sink", "log-sink", 1, "window").build();

        assertViolations(spec).containsExactly(
                violation("source", "operators[0].config.count", "config.count: must be a non-negative integer"),
                violation("window", "operators[1].config.windowMillis", "config.windowMillis: must be a non-negative"));
    }

    @Test
    void rejectsConfigThatIsNotAnObject() {
        TopologySpec spec = Specs.topology("t").opWith("source", "generator", 1, "[1, 2]")
                .op("sink", "log-sink", 1, "source").build();

        assertViolations(spec).containsExactly(
                violation("source", "operators[0].config", "config must be a JSON object, found array [1,2]"));
    }

    @Test
    void acceptsEveryPartitioningBetweenOperatorsOfDifferentParallelism() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 3)
                .opWith("a", "log-sink", 5, "{}", InputSpec.byKey("source"))
                .opWith("b", "log-sink", 2, "{}", new InputSpec("source", Partitioning.ROUND_ROBIN))
                .opWith("c", "log-sink", 7, "{}", new InputSpec("source", Partitioning.BROADCAST)).build();

        assertThatCode(() -> validator.validate(spec)).doesNotThrowAnyException();
    }

    @Test
    void rejectsAMillionChannelPlanNamingTheInputThatMakesThem() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 1024).op("count", "keyed-count", 1024, "source")
                .op("sink", "latest-value-sink", 1, "count").build();

        assertThat(validator.violationsOf(spec)).singleElement().satisfies(v -> {
            assertThat(v.operator()).isEqualTo("count");
            assertThat(v.field()).isEqualTo("operators[1].inputs[0]");
            assertThat(v.message()).startsWith("inputs[0] from 'source' makes 1048576 channels (parallelism 1024 of"
                    + " 'source' × 1024 of 'count'")
                    .contains("the plan would have 1049600 channels in all, over the limit of 65536 (maxChannels)")
                    .contains("about 36 GiB of the hosts' heap")
                    .contains("Lower the parallelism of 'source' or 'count' so that the plan has at most 65536 channels");
        });
    }

    @Test
    void acceptsAPlanAtTheChannelLimitAndRejectsOneChannelMore() {
        TopologySpec atLimit = Specs.topology("t").op("source", "generator", 256)
                .op("sink", "latest-value-sink", 256, "source").build();
        TopologySpec over = Specs.topology("t").op("source", "generator", 256)
                .op("sink", "latest-value-sink", 256, "source").op("a", "generator", 1)
                .op("log", "log-sink", 1, "a").build();

        assertThat(validator.violationsOf(atLimit)).isEmpty();
        assertViolations(over).containsExactly(violation("sink", "operators[1].inputs[0]",
                "inputs[0] from 'source' makes 65536 channels"));
        assertThat(validator.violationsOf(over).get(0).message()).contains("65537 channels in all");
    }

    @Test
    void namesAsFewOfTheLargestInputsAsMustShrinkForTheRestToFit() {
        TopologyValidator strict = new TopologyValidator(FakeOperatorCatalog.builtIns(),
                new TopologyLimits(16, 30, 100, 4, 10_000, 500));
        TopologySpec spec = Specs.topology("t").op("source", "generator", 30)
                .op("small", "latest-value-sink", 4, "source")
                .op("large", "latest-value-sink", 30, "source")
                .op("medium", "latest-value-sink", 20, "source").build();

        assertThat(strict.violationsOf(spec)).extracting(Violation::operator, Violation::field)
                .containsExactly(tuple("large", "operators[2].inputs[0]"),
                        tuple("medium", "operators[3].inputs[0]"));
        assertThat(strict.violationsOf(spec).get(0).message()).contains("1620 channels in all, over the limit of 500");
    }

    @Test
    void rejectsRoundRobinIntoAKeyedCountNamingTheInputAndWhatToUse() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 2)
                .opWith("count", "keyed-count", 2, "{}", new InputSpec("source", Partitioning.ROUND_ROBIN))
                .op("sink", "latest-value-sink", 1, "count").build();

        assertThat(validator.violationsOf(spec)).singleElement().satisfies(v -> {
            assertThat(v.operator()).isEqualTo("count");
            assertThat(v.field()).isEqualTo("operators[1].inputs[0].partitioning");
            assertThat(v.message()).isEqualTo("inputs[0].partitioning 'round-robin' (from 'source') would spread the"
                    + " events of one key over several subtasks, but type 'keyed-count' keeps its state per key, so"
                    + " each subtask would hold part of a key's result; use \"partitioning\": \"key\" (the default"
                    + " when left out)");
        });
    }

    @Test
    void rejectsBroadcastIntoEveryKeyedTypeNamingEachInput() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 2).op("other", "generator", 1)
                .opWith("count", "keyed-count", 2, "{}", InputSpec.byKey("source"),
                        new InputSpec("other", Partitioning.BROADCAST))
                .opWith("window", "window-sum", 2, "{'windowMillis': 10}", new InputSpec("source", Partitioning.BROADCAST))
                .opWith("sink", "latest-value-sink", 1, "{}", new InputSpec("count", Partitioning.ROUND_ROBIN),
                        InputSpec.byKey("window")).build();

        assertViolations(spec).containsExactly(
                violation("count", "operators[2].inputs[1].partitioning", "inputs[1].partitioning 'broadcast' (from 'other')"),
                violation("window", "operators[3].inputs[0].partitioning", "inputs[0].partitioning 'broadcast' (from 'source')"),
                violation("sink", "operators[4].inputs[0].partitioning", "inputs[0].partitioning 'round-robin' (from 'count')"));
    }

    @Test
    void acceptsKeyPartitioningIntoKeyedOperatorsAndAnyPartitioningIntoOperatorsThatAreNot() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 2)
                .opWith("double", "map", 3, "{'function': 'double'}", new InputSpec("source", Partitioning.ROUND_ROBIN))
                .opWith("even", "filter", 2, "{'predicate': 'even'}", new InputSpec("double", Partitioning.BROADCAST))
                .opWith("count", "keyed-count", 2, "{}", InputSpec.byKey("even"))
                .opWith("log", "log-sink", 1, "{}", new InputSpec("count", Partitioning.ROUND_ROBIN))
                .op("latest", "latest-value-sink", 2, "count").build();

        assertThat(validator.violationsOf(spec)).isEmpty();
    }

    @Test
    void collectsEveryViolationAndListsEachOnItsOwnLine() {
        TopologySpec spec = Specs.topology("x").op("source", "generator", 0)
                .op("count", "keyed-count", 1, "sorce").op("sink", "log-sink", 1, "count").build();

        TopologyValidationException e = catchThrowableOfType(TopologyValidationException.class,
                () -> validator.validate(spec));

        assertThat(e.topology()).isEqualTo("x");
        assertThat(e.violations()).hasSize(2);
        assertThat(e.getMessage()).isEqualTo("Topology 'x' is invalid:\n"
                + " - operators[0] 'source': parallelism 0 is out of range; use 1..1024 (maxParallelism)\n"
                + " - operators[1] 'count': inputs[0].from 'sorce' names no operator; known operators: count, sink,"
                + " source");
    }

    @Test
    void checksLargeAcyclicTopologyWithoutComplaint() {
        Specs chain = Specs.topology("chain").op("op0", "generator", 1);
        IntStream.range(1, 200).forEach(i -> chain.op("op" + i, "keyed-count", 1, "op" + (i - 1)));
        chain.op("sink", "log-sink", 1, "op199");

        assertThat(validator.violationsOf(chain.build())).isEmpty();
    }

    @Test
    void acceptsPositiveCheckpointSettings() {
        TopologySpec base = valid().build();
        TopologySpec spec = new TopologySpec("t", base.operators(), new CheckpointingSpec(1L, 1L, 1));

        assertThat(validator.violationsOf(spec)).isEmpty();
    }

    @Test
    void rejectsNonPositiveCheckpointSettingsNamingEachField() {
        TopologySpec base = valid().build();
        TopologySpec spec = new TopologySpec("t", base.operators(), new CheckpointingSpec(0L, -5L, 0));

        assertViolations(spec).containsExactly(
                violation(null, "checkpointing.intervalMs", "checkpointing.intervalMs 0 is not positive"),
                violation(null, "checkpointing.timeoutMs", "checkpointing.timeoutMs -5 is not positive"),
                violation(null, "checkpointing.maxConcurrent", "checkpointing.maxConcurrent 0 is not positive"));
        assertThat(validator.violationsOf(spec).get(0).message()).contains("leave it out to use the router's default");
    }

    @Test
    void rejectsAnUnknownRecoveryModeNamingTheModes() {
        TopologySpec base = valid().build();
        TopologySpec spec = new TopologySpec("t", base.operators(), CheckpointingSpec.DEFAULTS,
                new RecoverySpec("partial"));

        assertViolations(spec).containsExactly(violation(null, "recovery.mode",
                "recovery.mode 'partial' is not a recovery mode; give one of [LOCAL, GLOBAL, AUTO]"));
        assertThat(validator.violationsOf(new TopologySpec("t", base.operators(), CheckpointingSpec.DEFAULTS,
                new RecoverySpec("Global")))).isEmpty();
        assertThat(validator.violationsOf(new TopologySpec("t", base.operators(), CheckpointingSpec.DEFAULTS,
                new RecoverySpec("auto")))).isEmpty();
    }

    /** Same operator and field, and one message starts with the other. */
    private static final Comparator<Violation> BY_MESSAGE_START = (a, b) ->
            Objects.equals(a.operator(), b.operator()) && a.field().equals(b.field())
                    && (a.message().startsWith(b.message()) || b.message().startsWith(a.message())) ? 0 : 1;

    private ListAssert<Violation> assertViolations(TopologySpec spec) {
        return assertThat(validator.violationsOf(spec)).usingElementComparator(BY_MESSAGE_START);
    }

    /** The expected violation; its message need only be the start of the actual one. */
    private static Violation violation(String operator, String field, String messageStart) {
        return new Violation(operator, field, messageStart);
    }
}
