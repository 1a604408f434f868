package io.steadfast.runtime.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.topology.InputSpec;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.Partitioning;
import io.steadfast.runtime.topology.Specs;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.CheckpointingSpec;
import io.steadfast.runtime.topology.RecoverySpec;
import io.steadfast.runtime.topology.TopologySpec;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class PlanExpanderTest {

    private static final TopologyId T = new TopologyId("t");

    private static TopologySpec wordCount() {
        return Specs.topology("t").opWith("source", "generator", 2, "{'count': 10}")
                .op("count", "keyed-count", 3, "source").op("sink", "latest-value-sink", 1, "count").build();
    }

    private static TaskId task(String operator, int subtask) {
        return new TaskId(T, new OperatorId(operator), subtask);
    }

    @Test
    void carriesTheSpecsRecoveryModeIntoThePlanLocalByDefault() {
        TopologySpec local = wordCount();
        TopologySpec global = new TopologySpec(local.id(), local.operators(), CheckpointingSpec.DEFAULTS,
                new RecoverySpec("GLOBAL"));

        assertThat(PlanExpander.expand(local).recoveryMode()).isEqualTo(RecoveryMode.LOCAL);
        assertThat(PlanExpander.expand(global).recoveryMode()).isEqualTo(RecoveryMode.GLOBAL);
    }

    @Test
    void createsOneTaskPerSubtaskInTopologicalOrder() {
        ExecutionPlan plan = PlanExpander.expand(wordCount());

        assertThat(plan.tasks()).extracting(TaskSpec::id).containsExactly(task("source", 0), task("source", 1),
                task("count", 0), task("count", 1), task("count", 2), task("sink", 0));
        assertThat(plan.task(task("source", 1)).orElseThrow().config().get("count").asInt()).isEqualTo(10);
        assertThat(plan.task(task("count", 2)).orElseThrow().parallelism()).isEqualTo(3);
    }

    @Test
    void ordersOperatorsUpstreamFirstEvenWhenDeclaredOtherwise() {
        TopologySpec spec = Specs.topology("t").op("sink", "log-sink", 1, "count")
                .op("count", "keyed-count", 1, "source").op("source", "generator", 1).build();

        assertThat(PlanExpander.expand(spec).tasks()).extracting(t -> t.id().operator().value())
                .containsExactly("source", "count", "sink");
    }

    @Test
    void createsFullBipartiteChannelsForEveryPartitioning() {
        for (Partitioning partitioning : Partitioning.values()) {
            TopologySpec spec = Specs.topology("t").op("source", "generator", 3)
                    .opWith("sink", "log-sink", 4, "{}", new InputSpec("source", partitioning)).build();

            ExecutionPlan plan = PlanExpander.expand(spec);

            assertThat(plan.channels()).as(partitioning.jsonName()).hasSize(12)
                    .allSatisfy(channel -> assertThat(channel.partitioning()).isEqualTo(partitioning));
            assertThat(plan.channels()).extracting(c -> c.from().subtask() + ">" + c.to().subtask())
                    .doesNotHaveDuplicates();
        }
    }

    @Test
    void countsChannelsOverAllEdges() {
        ExecutionPlan plan = PlanExpander.expand(wordCount());

        assertThat(plan.channels()).hasSize(2 * 3 + 3 * 1);
        assertThat(plan.channels()).extracting(c -> c.id().index()).containsExactlyElementsOf(
                IntStream.range(0, 9).boxed().toList());
    }

    @Test
    void ordersTheChannelsOfAnOutputEdgeByDownstreamSubtask() {
        ExecutionPlan plan = PlanExpander.expand(wordCount());

        OutputEdge edge = plan.task(task("source", 1)).orElseThrow().outputs().get(0);

        assertThat(edge.to()).isEqualTo(new OperatorId("count"));
        assertThat(edge.partitioning()).isEqualTo(Partitioning.KEY);
        for (int i = 0; i < edge.channels().size(); i++) {
            ChannelSpec channel = plan.channel(edge.channels().get(i)).orElseThrow();
            assertThat(channel.from()).isEqualTo(task("source", 1));
            assertThat(channel.to()).isEqualTo(task("count", i));
        }
    }

    @Test
    void givesEachInputChannelOfAMultiInputOperatorItsInputIndex() {
        TopologySpec spec = Specs.topology("t").op("left", "generator", 2).op("right", "generator", 1)
                .opWith("join", "map", 2, "{'function': 'identity'}", InputSpec.byKey("left"),
                        new InputSpec("right", Partitioning.BROADCAST))
                .op("sink", "log-sink", 1, "join").build();

        ExecutionPlan plan = PlanExpander.expand(spec);
        List<InputChannel> inputs = plan.task(task("join", 1)).orElseThrow().inputs();

        assertThat(inputs).extracting(InputChannel::from, InputChannel::inputIndex).containsExactly(
                org.assertj.core.groups.Tuple.tuple(task("left", 0), 0),
                org.assertj.core.groups.Tuple.tuple(task("left", 1), 0),
                org.assertj.core.groups.Tuple.tuple(task("right", 0), 1));
        assertThat(inputs).allSatisfy(input ->
                assertThat(plan.channel(input.channel()).orElseThrow().to()).isEqualTo(task("join", 1)));
        assertThat(plan.channel(inputs.get(2).channel()).orElseThrow().partitioning())
                .isEqualTo(Partitioning.BROADCAST);
    }

    @Test
    void looksUpTasksOfAnOperatorAndSources() {
        ExecutionPlan plan = PlanExpander.expand(wordCount());

        assertThat(plan.tasksOf(new OperatorId("count"))).extracting(TaskSpec::id)
                .containsExactly(task("count", 0), task("count", 1), task("count", 2));
        assertThat(plan.tasksOf(new OperatorId("nope"))).isEmpty();
        assertThat(plan.sources()).extracting(TaskSpec::id).containsExactly(task("source", 0), task("source", 1));
        assertThat(plan.task(task("sink", 0)).orElseThrow().outputs()).isEmpty();
        assertThat(plan.task(task("sink", 1))).isEmpty();
        assertThat(plan.channel(new ChannelId(T, 9))).isEmpty();
        assertThat(plan.channel(new ChannelId(new TopologyId("other"), 0))).isEmpty();
    }

    @Test
    void expandsTheSameSpecToAnEqualPlan() {
        assertThat(PlanExpander.expand(wordCount())).isEqualTo(PlanExpander.expand(wordCount()))
                .hasSameHashCodeAs(PlanExpander.expand(wordCount()));
    }

    @Test
    void roundTripsThePlanThroughJson() {
        TopologySpec spec = Specs.topology("t").opWith("source", "generator", 2, "{'count': 10, 'seed': 7}")
                .opWith("double", "map", 2, "{'function': 'double'}", new InputSpec("source", Partitioning.ROUND_ROBIN))
                .op("sink", "log-sink", 1, "double").build();
        ExecutionPlan plan = PlanExpander.expand(spec);
        JsonMapper mapper = JsonMapper.builder().build();

        String json = mapper.writeValueAsString(plan);
        ExecutionPlan read = mapper.readValue(json, ExecutionPlan.class);

        assertThat(read).isEqualTo(plan);
        assertThat(json).contains("\"topology\":\"t\"", "\"id\":\"t/source#1\"", "\"t~0\"", "\"round-robin\"");
        TaskSpec task = plan.tasks().get(2);
        assertThat(mapper.readValue(mapper.writeValueAsString(task), TaskSpec.class)).isEqualTo(task);
    }

    @Test
    void refusesASpecWithACycle() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 1).op("a", "keyed-count", 1, "source", "b")
                .op("b", "keyed-count", 1, "a").build();

        assertThatThrownBy(() -> PlanExpander.expand(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cycle");
    }

    @Test
    void rejectsPlanWhoseChannelsAreOutOfOrder() {
        ChannelSpec channel = new ChannelSpec(new ChannelId(T, 1), task("a", 0), task("b", 0), Partitioning.KEY);

        assertThatThrownBy(() -> new ExecutionPlan(T, List.of(), List.of(channel)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("position 0");
    }
}
