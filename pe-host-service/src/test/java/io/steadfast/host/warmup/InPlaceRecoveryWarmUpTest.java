package io.steadfast.host.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.TaskMeters;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The in-process warm-up recovers its job in place every round on a real runtime and data plane, leaves nothing
 * running, and keeps its snapshots from the uploader, which still gets every other topology's.
 */
class InPlaceRecoveryWarmUpTest {

    private final List<TaskId> uploaded = new CopyOnWriteArrayList<>();
    private final WarmUpSnapshots snapshots = new WarmUpSnapshots((task, checkpointId, snapshot, syncNanos) ->
            uploaded.add(task));
    private final OperatorRegistry registry = OperatorRegistry.load();
    private final HostRuntime runtime = new HostRuntime(new HostId("warm-host"), registry,
            DataPlane.start(DataPlaneConfig.defaults()), TaskSettings.defaults(), Clock.systemUTC(), snapshots);
    private final ProcessingNode node = new ProcessingNode(runtime, registry,
            new TaskMeters(new SimpleMeterRegistry(), runtime), Clock.systemUTC());

    @AfterEach
    void close() {
        node.close();
    }

    @Test
    void recoversItsJobInPlaceEveryRoundAndLeavesNothingBehind() throws InterruptedException {
        assertThat(new InPlaceRecoveryWarmUp(node, snapshots).run()).isEqualTo(InPlaceRecoveryWarmUp.ROUNDS);

        assertThat(node.taskReports()).isEmpty();
        assertThat(node.deployments()).isEmpty();
        assertThat(uploaded).as("no snapshot of the warm-up job reached the uploader").isEmpty();
        assertThat(snapshots.of(InPlaceRecoveryWarmUp.TOPOLOGY)).isEmpty();
    }

    @Test
    void passesTheSnapshotsOfOtherTopologiesOnToTheUploaderWhileItKeepsItsOwn() {
        snapshots.keep(InPlaceRecoveryWarmUp.TOPOLOGY);
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "job", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 1000000, "keys": 10, "ratePerSecond": 1000}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}"""));
        Map<TaskId, HostId> hosts = new TreeMap<>();
        plan.tasks().forEach(task -> hosts.put(task.id(), node.id()));
        node.deploy(plan, new TaskPlacement(hosts, Map.of(node.id(), node.dataEndpoint())));
        node.triggerCheckpoint(plan.topology(), 1);

        await().atMost(Duration.ofSeconds(10)).until(() -> uploaded.size() == 2);
        assertThat(uploaded).containsExactlyInAnyOrder(TaskId.parse("job/source#0"), TaskId.parse("job/sink#0"));
        assertThat(snapshots.of(InPlaceRecoveryWarmUp.TOPOLOGY)).isEmpty();
    }
}
