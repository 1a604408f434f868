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
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpec;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Aligned barrier checkpoints and a global restore after a host dies, on real sockets: the final result of
 * every key equals a failure-free run, with a multi-input operator so that alignment matters.
 */
@Timeout(120)
class GlobalRecoveryTest {

    private final OperatorRegistry registry = OperatorRegistry.of(List.of());
    private final List<HostRuntime> hosts = new ArrayList<>();
    private final SnapshotCollector collector = new SnapshotCollector();

    @AfterEach
    void closeHosts() {
        hosts.forEach(HostRuntime::close);
    }

    /** Stands in for the checkpoint-service: keeps every snapshot, by checkpoint and task. */
    static final class SnapshotCollector implements CheckpointListener {

        final Map<Long, Map<TaskId, OperatorSnapshot>> byCheckpoint = new ConcurrentSkipListMap<>();

        @Override
        public void onSnapshot(TaskId task, int incarnation, long checkpointId, OperatorSnapshot snapshot,
                               long syncNanos) {
            byCheckpoint.computeIfAbsent(checkpointId, id -> new ConcurrentHashMap<>()).put(task, snapshot);
        }

        long latestComplete(int tasks) {
            long latest = 0;
            for (Map.Entry<Long, Map<TaskId, OperatorSnapshot>> entry : byCheckpoint.entrySet()) {
                if (entry.getValue().size() == tasks) {
                    latest = Math.max(latest, entry.getKey());
                }
            }
            return latest;
        }
    }

    private HostRuntime startHost(String name) {
        HostRuntime host = new HostRuntime(new HostId(name), registry, DataPlane.start(DataPlaneConfig.defaults()),
                TaskSettings.defaults(), Clock.systemUTC(), collector);
        hosts.add(host);
        return host;
    }

    @Test
    void restoresEveryTaskFromTheLatestCheckpointAfterAHostDiesAndEveryKeyIsExact() {
        TopologySpec spec = new TopologySpecReader().read("""
                {"id": "recover", "operators": [
                  {"id": "clicks", "type": "generator", "parallelism": 2,
                   "config": {"count": 120000, "keys": 300, "ratePerSecond": 60000}},
                  {"id": "views", "type": "generator", "parallelism": 1,
                   "config": {"count": 80000, "keys": 300, "ratePerSecond": 40000}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2,
                   "inputs": [{"from": "clicks"}, {"from": "views"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""");
        ExecutionPlan plan = PlanExpander.expand(new TopologyValidator(registry).validate(spec));
        List<HostRuntime> three = List.of(startHost("host-a"), startHost("host-b"), startHost("host-c"));
        TaskPlacement placement = MultiHostKeyedCountTest.roundRobin(plan, three);
        three.forEach(host -> host.deploy(plan, placement));
        int taskCount = plan.tasks().size();

        // Checkpoint only once every source has emitted: on a loaded machine the checkpoints could otherwise all be
        // taken before the sources ran, and a restore from position 0 is indistinguishable from starting over.
        await().atMost(Duration.ofSeconds(30)).until(() -> three.stream().flatMap(host -> host.taskReports().stream())
                .filter(report -> report.type().equals("generator")).filter(report -> report.recordsOut() > 0)
                .count() == plan.sources().size());
        for (long checkpointId = 1; checkpointId <= 2; checkpointId++) {
            long next = checkpointId;
            three.forEach(host -> host.triggerCheckpoint(plan.topology(), next));
            await().atMost(Duration.ofSeconds(10)).until(() -> collector.latestComplete(taskCount) == next);
        }
        assertThat(sourcesStillRunning(plan, three)).as("the crash must come mid-stream").isTrue();

        HostRuntime dead = three.get(2);
        dead.close();
        hosts.remove(dead);
        long restoreFrom = collector.latestComplete(taskCount);
        List<HostRuntime> survivors = List.of(three.get(0), three.get(1));
        survivors.forEach(host -> host.cancel(plan.topology()));
        ExecutionPlan redeployed = plan.withEpoch(1);
        TaskPlacement newPlacement = MultiHostKeyedCountTest.roundRobin(redeployed, survivors);
        Map<TaskId, OperatorSnapshot> snapshots = new HashMap<>(collector.byCheckpoint.get(restoreFrom));
        survivors.forEach(host -> host.deploy(redeployed, newPlacement, snapshots));

        List<TaskId> sinks = redeployed.tasksOf(OperatorId.of("sink")).stream().map(TaskSpec::id).toList();
        await().atMost(Duration.ofSeconds(60)).until(() -> sinks.stream().allMatch(sink ->
                hostOf(sink, newPlacement).task(sink).orElseThrow().status() == TaskStatus.FINISHED));
        Map<String, Object> actual = new TreeMap<>();
        for (TaskId sink : sinks) {
            actual.putAll(hostOf(sink, newPlacement).queryAll(sink, "latest", Integer.MAX_VALUE).join());
        }
        Map<String, Object> expected = new TreeMap<>(MultiHostKeyedCountTest.expectedCounts(120_000, 300));
        MultiHostKeyedCountTest.expectedCounts(80_000, 300).forEach((key, n) -> expected.merge(key, n,
                (a, b) -> (Long) a + (Long) b));
        assertThat(actual).isEqualTo(expected);
        long replayedBySources = survivors.stream().flatMap(host -> host.taskReports().stream())
                .filter(report -> report.type().equals("generator")).mapToLong(TaskReport::recordsIn).sum();
        assertThat(replayedBySources).as("sources resumed from the checkpoint instead of starting over")
                .isPositive().isLessThan(200_000);
    }

    private boolean sourcesStillRunning(ExecutionPlan plan, List<HostRuntime> on) {
        return on.stream().flatMap(host -> host.taskReports().stream())
                .filter(report -> report.type().equals("generator"))
                .anyMatch(report -> report.status() == TaskStatus.RUNNING);
    }

    private HostRuntime hostOf(TaskId task, TaskPlacement placement) {
        HostId id = placement.hostOf(task);
        return hosts.stream().filter(h -> h.id().equals(id)).findFirst().orElseThrow();
    }
}
