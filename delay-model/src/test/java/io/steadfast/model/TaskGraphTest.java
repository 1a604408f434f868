package io.steadfast.model;

import static io.steadfast.model.Plans.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ChannelSpec;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.OutputEdge;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.Partitioning;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class TaskGraphTest {

    private static final TopologyId T = new TopologyId("t");

    /** A task of one subtask reading the given channels from the given tasks, in order. */
    private static TaskSpec taskReading(String id, List<ChannelId> channels, List<String> from, String to) {
        List<InputChannel> inputs = new ArrayList<>();
        for (int i = 0; i < channels.size(); i++) {
            inputs.add(new InputChannel(channels.get(i), task(from.get(i)), 0));
        }
        List<OutputEdge> outputs = to == null ? List.of()
                : List.of(new OutputEdge(task(to).operator(), Partitioning.KEY, List.of(new ChannelId(T, 99))));
        return new TaskSpec(task(id), "map", 1, JsonNodeFactory.instance.objectNode(), inputs, outputs);
    }

    @Test
    void ordersTasksByTheirChannelsWhateverThePlanListsFirst() {
        ChannelId first = new ChannelId(T, 0);
        ChannelId second = new ChannelId(T, 1);
        TaskSpec sink = taskReading("t/sink#0", List.of(second), List.of("t/map#0"), null);
        TaskSpec map = taskReading("t/map#0", List.of(first), List.of("t/source#0"), "t/sink#0");
        TaskSpec source = taskReading("t/source#0", List.of(), List.of(), "t/map#0");
        ExecutionPlan backwards = new ExecutionPlan(T, List.of(sink, map, source), List.of(
                new ChannelSpec(first, task("t/source#0"), task("t/map#0"), Partitioning.KEY),
                new ChannelSpec(second, task("t/map#0"), task("t/sink#0"), Partitioning.KEY)));

        TaskGraph graph = TaskGraph.of(backwards);

        assertThat(graph.order()).containsExactly(task("t/source#0"), task("t/map#0"), task("t/sink#0"));
        assertThat(graph.isSink(task("t/sink#0"))).isTrue();
        assertThat(graph.reachableFrom(Set.of(task("t/source#0")))).containsExactly(task("t/map#0"), task("t/sink#0"));
    }

    @Test
    void rejectsAPlanWhoseTasksFormACycleNamingThem() {
        ChannelId ab = new ChannelId(T, 0);
        ChannelId ba = new ChannelId(T, 1);
        TaskSpec a = taskReading("t/a#0", List.of(ba), List.of("t/b#0"), "t/b#0");
        TaskSpec b = taskReading("t/b#0", List.of(ab), List.of("t/a#0"), "t/a#0");
        ExecutionPlan cyclic = new ExecutionPlan(T, List.of(a, b), List.of(
                new ChannelSpec(ab, task("t/a#0"), task("t/b#0"), Partitioning.KEY),
                new ChannelSpec(ba, task("t/b#0"), task("t/a#0"), Partitioning.KEY)));

        assertThatThrownBy(() -> TaskGraph.of(cyclic)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cycle").hasMessageContaining("t/a#0").hasMessageContaining("t/b#0");
    }

    @Test
    void findsEveryTaskDownstreamOfSomeButNotTheGivenOnes() {
        TaskGraph graph = TaskGraph.of(Plans.wordCount121());
        TaskId count0 = task("wc/count#0");

        assertThat(graph.reachableFrom(Set.of(count0))).containsExactly(task("wc/sink#0"));
        assertThat(graph.reachableFrom(Set.of(task("wc/source#0"), count0)))
                .containsExactly(task("wc/count#1"), task("wc/sink#0"));
    }
}
