package io.steadfast.router.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologySpec;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EvenTaskPlacerTest {

    private final EvenTaskPlacer placer = new EvenTaskPlacer();
    private final HostId a = new HostId("host-a");
    private final HostId b = new HostId("host-b");
    private final HostId c = new HostId("host-c");

    private static ExecutionPlan plan(int sources, int counts, int sinks) {
        TopologySpec spec = new TopologySpecReader().read("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d},
                  {"id": "count", "type": "keyed-count", "parallelism": %d, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": %d, "inputs": [{"from": "count"}]}
                ]}""".formatted(sources, counts, sinks));
        return PlanExpander.expand(new TopologyValidator(OperatorRegistry.of(List.of())).validate(spec));
    }

    private static Map<HostId, Long> tasksPerHost(Map<TaskId, HostId> placement) {
        return placement.values().stream().collect(Collectors.groupingBy(h -> h, TreeMap::new, Collectors.counting()));
    }

    @Test
    void spreadsEveryOperatorsSubtasksOverDistinctHosts() {
        Map<TaskId, HostId> placement = placer.place(plan(2, 2, 2), Map.of(a, 0, b, 0));

        for (String operator : List.of("source", "count", "sink")) {
            assertThat(placement.entrySet().stream().filter(e -> e.getKey().operator().value().equals(operator))
                    .map(Map.Entry::getValue).distinct()).as(operator).containsExactlyInAnyOrder(a, b);
        }
        assertThat(tasksPerHost(placement)).containsExactlyEntriesOf(new TreeMap<>(Map.of(a, 3L, b, 3L)));
    }

    @Test
    void keepsTheTotalLoadWithinOneTaskOfEvenWhenParallelismDoesNotDivide() {
        Map<TaskId, HostId> placement = placer.place(plan(1, 1, 1), Map.of(a, 0, b, 0, c, 0));

        assertThat(tasksPerHost(placement)).containsOnlyKeys(a, b, c).allSatisfy((host, n) -> assertThat(n).isEqualTo(1));
    }

    @Test
    void fillsTheLeastLoadedHostsFirst() {
        Map<TaskId, HostId> placement = placer.place(plan(1, 1, 1), Map.of(a, 5, b, 0, c, 1));

        assertThat(placement.get(TaskId.parse("t/source#0"))).isEqualTo(b);
        assertThat(tasksPerHost(placement).get(a)).isNull();
    }

    @Test
    void placesTheSamePlanTheSameWayEveryTime() {
        ExecutionPlan plan = plan(3, 4, 2);
        Map<HostId, Integer> load = Map.of(c, 1, a, 0, b, 0);

        assertThat(placer.place(plan, load)).isEqualTo(placer.place(plan, new TreeMap<>(load)));
        assertThat(placer.place(plan, load).get(TaskId.parse("t/source#0"))).isEqualTo(a);
    }
}
