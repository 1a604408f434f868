package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host tells of each snapshot its tasks take with the incarnation of the task that took it, as the placement it was
 * deployed with says: the checkpoint-service and the router refuse the snapshots and acks of a superseded one.
 */
@Timeout(60)
class SnapshotIncarnationTest {

    private final Map<TaskId, Integer> reported = new ConcurrentHashMap<>();
    private final HostRuntime host = new HostRuntime(new HostId("host-a"), OperatorRegistry.of(List.of()),
            DataPlane.start(DataPlaneConfig.defaults()), TaskSettings.defaults(), Clock.systemUTC(),
            (task, incarnation, checkpointId, snapshot, syncNanos) -> reported.put(task, incarnation));

    @AfterEach
    void close() {
        host.close();
    }

    @Test
    void reportsEachSnapshotWithTheIncarnationItsTaskWasDeployedAs() {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "incarnated", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 1000000, "keys": 10,
                   "ratePerSecond": 1000}},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "source"}]}
                ]}"""));
        List<TaskId> sinks = plan.tasksOf(OperatorId.of("sink")).stream().map(TaskSpec::id).toList();
        Map<TaskId, HostId> hosts = new HashMap<>();
        plan.tasks().forEach(task -> hosts.put(task.id(), host.id()));
        host.deploy(plan, new TaskPlacement(hosts, Map.of(host.id(), host.dataEndpoint()), Map.of(sinks.get(1), 2)));

        host.triggerCheckpoint(plan.topology(), 1);

        await().atMost(Duration.ofSeconds(30)).until(() -> reported.size() == plan.tasks().size());
        assertThat(reported).containsEntry(sinks.get(1), 2).containsEntry(sinks.get(0), 0)
                .containsEntry(plan.sources().get(0).id(), 0);
    }
}
