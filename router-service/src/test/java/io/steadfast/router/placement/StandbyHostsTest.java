package io.steadfast.router.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.TaskId;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/** Standbys are kept per kind of host: a PE standby never takes a vote task, a voter standby never a PE task. */
class StandbyHostsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final StandbyHosts standby = new StandbyHosts(1);
    private final RegisteredHost peA = host("host-a", HostKind.PE, 0);
    private final RegisteredHost peB = host("host-b", HostKind.PE, 1);
    private final RegisteredHost peLast = host("host-c", HostKind.PE, 2);
    private final RegisteredHost voter1 = host("voter-1", HostKind.VOTER, 3);
    private final RegisteredHost voterLast = host("voter-2", HostKind.VOTER, 4);

    private static RegisteredHost host(String id, HostKind kind, int secondsAfterStart) {
        return RegisteredHost.registered(new HostId(id), kind, URI.create("http://" + id), "tcp://" + id + ":1", null,
                T0.plusSeconds(secondsAfterStart));
    }

    /** An N-version topology placed by {@link EvenTaskPlacer} on {@code hosts}. */
    private static DeployedTopology placedOn(List<RegisteredHost> hosts) {
        ExecutionPlan plan = EvenTaskPlacerTest.nVersionPlan(2, 1);
        Map<TaskId, HostId> placement = new EvenTaskPlacer().place(plan, StandbyHosts.candidates(hosts, List.of(),
                null));
        return new DeployedTopology(plan.topology(), JsonNodeFactory.instance.objectNode(), plan, placement, T0);
    }

    @Test
    void keepsTheIdleHostRegisteredLastOfEachKindAsItsStandby() {
        List<RegisteredHost> live = List.of(peA, peB, peLast, voter1, voterLast);

        assertThat(standby.among(live, List.of())).containsExactly(peLast, voterLast);
        assertThat(standby.forPlacement(live, List.of())).containsExactly(peA, peB, voter1);
    }

    @Test
    void placesOnTheStandbyOfAKindWhenItIsTheOnlyHostOfThatKind() {
        List<RegisteredHost> live = List.of(peA, peB, peLast, voter1);

        assertThat(standby.forPlacement(live, List.of())).as("the only voter takes the vote tasks")
                .containsExactly(peA, peB, voter1);
    }

    @Test
    void aVoterThatRunsVoteTasksIsNoStandbyAndLeavesTheIdleVoterAsOne() {
        DeployedTopology topology = placedOn(List.of(peA, peB, voter1));
        List<RegisteredHost> live = List.of(peA, peB, peLast, voter1, voterLast);

        assertThat(standby.among(live, List.of(topology))).containsExactly(peLast, voterLast);
        assertThat(topology.placement().entrySet()).filteredOn(placed -> placed.getKey().operator().value()
                .equals("score")).extracting(Map.Entry::getValue).containsOnly(voter1.id());
    }

    @Test
    void candidatesCarryEachHostsKindAndItsTasksLeavingOutTheTopologyBeingPlacedAnew() {
        DeployedTopology topology = placedOn(List.of(peA, voter1));
        Map<HostId, PlacementCandidate> byHost = new TreeMap<>();

        StandbyHosts.candidates(List.of(peA, voter1), List.of(topology), null)
                .forEach(candidate -> byHost.put(candidate.host(), candidate));

        assertThat(byHost.get(peA.id())).isEqualTo(new PlacementCandidate(peA.id(), HostKind.PE, 4));
        assertThat(byHost.get(voter1.id())).isEqualTo(new PlacementCandidate(voter1.id(), HostKind.VOTER, 1));
        assertThat(StandbyHosts.candidates(List.of(peA, voter1), List.of(topology), topology.id()))
                .extracting(PlacementCandidate::tasks).containsOnly(0);
    }
}
