package io.steadfast.host.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.testkit.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A host's reconciliation with the router's view, on a real runtime and data plane: what the router moved away
 * or no longer knows is cancelled, what it still runs here (or has not caught up with yet) keeps running.
 */
class ProcessingNodeReconcileTest {

    private static final HostId HERE = new HostId("host-here");
    private static final Duration GRACE = Duration.ofSeconds(15);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final OperatorRegistry registry = OperatorRegistry.load();
    private final HostRuntime runtime = new HostRuntime(HERE, registry, DataPlane.start(DataPlaneConfig.defaults()),
            TaskSettings.defaults(), Clock.systemUTC());
    private final ProcessingNode node = new ProcessingNode(runtime, registry,
            new TaskMeters(new SimpleMeterRegistry(), runtime), clock);

    @AfterEach
    void close() {
        node.close();
    }

    private List<TaskId> deploy(String topology, int epoch) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 10}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}""".formatted(topology))).withEpoch(epoch);
        Map<TaskId, HostId> hosts = new HashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id(), HERE);
        }
        return node.deploy(plan, new TaskPlacement(hosts, Map.of(HERE, runtime.dataEndpoint())));
    }

    private List<String> runningTopologies() {
        return node.taskReports().stream().map(TaskReport::task).map(task -> TaskId.parse(task).topology().value())
                .distinct().sorted().toList();
    }

    @Test
    void cancelsATopologyTheRouterRunsAtALaterEpochElsewhereAndKeepsTheOnesItStillRunsHere() {
        List<TaskId> kept = deploy("kept", 0);
        List<TaskId> moved = deploy("moved", 0);
        assertThat(runningTopologies()).containsExactly("kept", "moved");

        List<StaleDeployment> cancelled = node.reconcile(new HostAssignment(List.of(
                new HostDeployment(TopologyId.of("kept"), 0, kept),
                new HostDeployment(TopologyId.of("moved"), 1, List.of()))), GRACE);

        assertThat(cancelled).extracting(StaleDeployment::deployment)
                .containsExactly(new HostDeployment(TopologyId.of("moved"), 0, moved));
        assertThat(cancelled.get(0).reason()).contains("epoch 1", "declared dead");
        assertThat(runningTopologies()).containsExactly("kept");
        assertThat(node.deployments()).containsExactly(new HostDeployment(TopologyId.of("kept"), 0, kept));
        assertThat(runtime.topologies()).containsExactly(TopologyId.of("kept"));
    }

    @Test
    void cancelsATopologyOfAnOlderEpochEvenWhenTheRouterPlacedTasksOfItHereAgain() {
        List<TaskId> old = deploy("again", 0);

        List<StaleDeployment> cancelled = node.reconcile(new HostAssignment(List.of(
                new HostDeployment(TopologyId.of("again"), 2, old))), GRACE);

        assertThat(cancelled).hasSize(1);
        assertThat(runningTopologies()).isEmpty();
    }

    @Test
    void keepsADeploymentNewerThanTheRoutersViewWhichHasNotRecordedTheRedeploymentYet() {
        List<TaskId> tasks = deploy("redeployed", 3);

        List<StaleDeployment> cancelled = node.reconcile(new HostAssignment(List.of(
                new HostDeployment(TopologyId.of("redeployed"), 2, tasks))), GRACE);

        assertThat(cancelled).isEmpty();
        assertThat(node.deployments()).containsExactly(new HostDeployment(TopologyId.of("redeployed"), 3, tasks));
    }

    @Test
    void cancelsATopologyTheRouterDoesNotKnowOnlyAfterTheGraceForADeploymentInProgress() {
        deploy("orphan", 0);

        assertThat(node.reconcile(new HostAssignment(List.of()), GRACE)).as("just deployed: may be in progress")
                .isEmpty();
        clock.advance(GRACE);
        assertThat(node.reconcile(new HostAssignment(List.of()), GRACE)).isEmpty();
        assertThat(runningTopologies()).containsExactly("orphan");

        clock.advance(Duration.ofMillis(1));
        List<StaleDeployment> cancelled = node.reconcile(new HostAssignment(List.of()), GRACE);

        assertThat(cancelled).singleElement().satisfies(stale -> assertThat(stale.reason())
                .contains("does not know topology 'orphan'"));
        assertThat(runningTopologies()).isEmpty();
        assertThat(node.deployments()).isEmpty();
    }

    @Test
    void keepsTasksTheRoutersViewShowsNowhereHereUntilTheirDeploymentHasSettled() {
        // tasks just started here (deployed, or recovered in place: the router records those only once the recovery
        // is done) against a heartbeat answer from before: the router's view has the topology, with no task here
        List<TaskId> recovered = deploy("recovered", 0);
        HostAssignment before = new HostAssignment(List.of(new HostDeployment(TopologyId.of("recovered"), 0,
                List.of())));

        assertThat(node.reconcile(before, GRACE)).as("just started here: the router may not have recorded it")
                .isEmpty();
        clock.advance(ProcessingNode.RECORDED_WITHIN);
        assertThat(node.reconcile(before, GRACE)).isEmpty();
        assertThat(node.deployments()).containsExactly(new HostDeployment(TopologyId.of("recovered"), 0, recovered));

        clock.advance(Duration.ofMillis(1));
        List<StaleDeployment> cancelled = node.reconcile(before, GRACE);

        assertThat(cancelled).singleElement().satisfies(stale -> assertThat(stale.reason())
                .contains("placed no task of topology 'recovered' epoch 0 on this host"));
        assertThat(runningTopologies()).isEmpty();
    }

    @Test
    void aCancelledTopologyCanBeDeployedAgainAtTheRoutersEpoch() {
        deploy("back", 0);
        node.reconcile(new HostAssignment(List.of(new HostDeployment(TopologyId.of("back"), 1, List.of()))), GRACE);

        List<TaskId> redeployed = deploy("back", 2);

        assertThat(node.deployments()).containsExactly(new HostDeployment(TopologyId.of("back"), 2, redeployed));
        assertThat(runningTopologies()).containsExactly("back");
    }
}
