package io.steadfast.router.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpec;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Placement spreads each operator over the hosts of the kind it needs, the versions of a subtask apart. */
class EvenTaskPlacerTest {

    private final EvenTaskPlacer placer = new EvenTaskPlacer();
    private final HostId a = new HostId("host-a");
    private final HostId b = new HostId("host-b");
    private final HostId c = new HostId("host-c");
    private final HostId v1 = new HostId("voter-1");
    private final HostId v2 = new HostId("voter-2");

    private static ExecutionPlan plan(int sources, int counts, int sinks) {
        TopologySpec spec = new TopologySpecReader().read("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d},
                  {"id": "count", "type": "keyed-count", "parallelism": %d, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": %d, "inputs": [{"from": "count"}]}
                ]}""".formatted(sources, counts, sinks));
        return PlanExpander.expand(new TopologyValidator(OperatorRegistry.of(List.of())).validate(spec));
    }

    /** Voters v1 and v2 beside PE hosts a, b and c, all idle. */
    private final List<PlacementCandidate> withVoters = List.of(pe(a, 0), pe(b, 0), pe(c, 0),
            new PlacementCandidate(v1, HostKind.VOTER, 0), new PlacementCandidate(v2, HostKind.VOTER, 0));

    private static PlacementCandidate pe(HostId host, int tasks) {
        return new PlacementCandidate(host, HostKind.PE, tasks);
    }

    /** PE hosts, each with the tasks it runs already. */
    private static List<PlacementCandidate> pe(Map<HostId, Integer> load) {
        return load.entrySet().stream().map(entry -> pe(entry.getKey(), entry.getValue())).toList();
    }

    /** {@code score} with {@code versions} versions between a source and a sink, every operator of parallelism p. */
    static ExecutionPlan nVersionPlan(int versions, int parallelism) {
        String types = ", {\"type\": \"keyed-count\"}".repeat(versions).substring(2);
        TopologySpec spec = new TopologySpecReader().read("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d},
                  {"id": "score", "parallelism": %d, "inputs": [{"from": "source"}], "versions": [%s]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": %d, "inputs": [{"from": "score"}]}
                ]}""".formatted(parallelism, parallelism, types, parallelism));
        return PlanExpander.expand(new TopologyValidator(OperatorRegistry.of(List.of())).validate(spec));
    }

    private static Map<HostId, Long> tasksPerHost(Map<TaskId, HostId> placement) {
        return placement.values().stream().collect(Collectors.groupingBy(h -> h, TreeMap::new, Collectors.counting()));
    }

    @Test
    void spreadsEveryOperatorsSubtasksOverDistinctHosts() {
        Map<TaskId, HostId> placement = placer.place(plan(2, 2, 2), pe(Map.of(a, 0, b, 0)));

        for (String operator : List.of("source", "count", "sink")) {
            assertThat(placement.entrySet().stream().filter(e -> e.getKey().operator().value().equals(operator))
                    .map(Map.Entry::getValue).distinct()).as(operator).containsExactlyInAnyOrder(a, b);
        }
        assertThat(tasksPerHost(placement)).containsExactlyEntriesOf(new TreeMap<>(Map.of(a, 3L, b, 3L)));
    }

    @Test
    void keepsTheTotalLoadWithinOneTaskOfEvenWhenParallelismDoesNotDivide() {
        Map<TaskId, HostId> placement = placer.place(plan(1, 1, 1), pe(Map.of(a, 0, b, 0, c, 0)));

        assertThat(tasksPerHost(placement)).containsOnlyKeys(a, b, c).allSatisfy((host, n) -> assertThat(n).isEqualTo(1));
    }

    @Test
    void fillsTheLeastLoadedHostsFirst() {
        Map<TaskId, HostId> placement = placer.place(plan(1, 1, 1), pe(Map.of(a, 5, b, 0, c, 1)));

        assertThat(placement.get(TaskId.parse("t/source#0"))).isEqualTo(b);
        assertThat(tasksPerHost(placement).get(a)).isNull();
    }

    @Test
    void placesTheSamePlanTheSameWayEveryTime() {
        ExecutionPlan plan = plan(3, 4, 2);
        Map<HostId, Integer> load = Map.of(c, 1, a, 0, b, 0);

        assertThat(placer.place(plan, pe(load))).isEqualTo(placer.place(plan, pe(new TreeMap<>(load))));
        assertThat(placer.place(plan, pe(load)).get(TaskId.parse("t/source#0"))).isEqualTo(a);
    }

    @Test
    void placesVoteTasksOnlyOnVotersAndEveryOtherTaskOnlyOnPeHosts() {
        ExecutionPlan plan = nVersionPlan(3, 2);

        Map<TaskId, HostId> placement = placer.place(plan, withVoters);

        plan.tasks().forEach(task -> assertThat(placement.get(task.id())).as(task.id().toString())
                .isIn(task.isVote() ? List.of(v1, v2) : List.of(a, b, c)));
        assertThat(placement.entrySet()).filteredOn(placed -> placed.getKey().operator().value().equals("score"))
                .extracting(Map.Entry::getValue).as("the vote tasks spread over the voters")
                .containsExactlyInAnyOrder(v1, v2);
    }

    @Test
    void placesTheVersionsOfEachSubtaskOnDistinctHostsWhereThereAreEnough() {
        for (int parallelism = 1; parallelism <= 4; parallelism++) {
            ExecutionPlan plan = nVersionPlan(3, parallelism);

            Map<TaskId, HostId> placement = placer.place(plan, withVoters);

            for (int subtask = 0; subtask < parallelism; subtask++) {
                int i = subtask;
                assertThat(placement.entrySet()).filteredOn(placed -> placed.getKey().operator().isVersion()
                                && placed.getKey().subtask() == i).extracting(Map.Entry::getValue)
                        .as("versions of score#%d with parallelism %d", i, parallelism)
                        .doesNotHaveDuplicates().hasSize(3);
            }
            assertThat(PlacementWarnings.of(plan, placement)).isEmpty();
        }
    }

    @Test
    void keepsTheVersionsApartEvenWhenOtherTasksLoadTheHostsUnevenly() {
        ExecutionPlan plan = nVersionPlan(2, 3);
        List<PlacementCandidate> busyA = List.of(pe(a, 7), pe(b, 0), new PlacementCandidate(v1, HostKind.VOTER, 0));

        Map<TaskId, HostId> placement = placer.place(plan, busyA);

        for (int subtask = 0; subtask < 3; subtask++) {
            assertThat(placement.get(new TaskId(plan.topology(), new OperatorId("score~v0"), subtask)))
                    .as("score#%d", subtask)
                    .isNotEqualTo(placement.get(new TaskId(plan.topology(), new OperatorId("score~v1"), subtask)));
        }
    }

    @Test
    void putsVersionsTogetherOnlyWhenThereAreFewerHostsThanVersionsAndSaysSo() {
        ExecutionPlan plan = nVersionPlan(3, 1);

        Map<TaskId, HostId> placement = placer.place(plan, List.of(pe(a, 0), pe(b, 0),
                new PlacementCandidate(v1, HostKind.VOTER, 0)));

        assertThat(placement.entrySet()).filteredOn(placed -> placed.getKey().operator().isVersion())
                .extracting(Map.Entry::getValue).containsOnly(a, b);
        assertThat(PlacementWarnings.of(plan, placement)).singleElement().asString()
                .contains("of score#0 share host", "Start more pe-host-services");
    }

    @Test
    void refusesAPlanWhoseTasksNeedAKindOfHostThatNoCandidateIs() {
        assertThatThrownBy(() -> placer.place(nVersionPlan(2, 1), pe(Map.of(a, 0, b, 0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no VOTER host to place score")
                .hasMessageContaining("start a voter-service");
    }
}
