package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Local recovery on real sockets, without the services: the host of the counting tasks dies mid-stream, its
 * tasks are restored in place on a standby host from the latest completed checkpoint, the source replays its
 * output log to them, and the sinks drop the regenerated records they already have. Every key is exact, and
 * the source and sink tasks were never restarted or rolled back.
 */
@Timeout(120)
class LocalRecoveryTest {

    private static final long COUNT = 90_000;
    private static final int KEYS = 300;

    private final OperatorRegistry registry = OperatorRegistry.of(List.of());
    private final List<HostRuntime> live = new CopyOnWriteArrayList<>();
    private final List<HostRuntime> all = new ArrayList<>();
    private final CompletingCollector collector = new CompletingCollector();
    private final ScheduledExecutorService coordinator = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        coordinator.shutdownNow();
        all.forEach(HostRuntime::close);
    }

    /**
     * Stands in for the checkpoint-service and the router's coordinator: keeps every snapshot, and once every
     * task of the plan has one for a checkpoint, tells the live hosts it completed (their output logs truncate).
     */
    private final class CompletingCollector implements CheckpointListener {

        final Map<Long, Map<TaskId, OperatorSnapshot>> byCheckpoint = new ConcurrentSkipListMap<>();
        final AtomicLong latestComplete = new AtomicLong();
        volatile int taskCount = Integer.MAX_VALUE;
        volatile ExecutionPlan plan;

        @Override
        public void onSnapshot(TaskId task, long checkpointId, OperatorSnapshot snapshot, long syncNanos) {
            Map<TaskId, OperatorSnapshot> snapshots = byCheckpoint.computeIfAbsent(checkpointId,
                    id -> new ConcurrentHashMap<>());
            snapshots.put(task, snapshot);
            if (snapshots.size() == taskCount && latestComplete.getAndAccumulate(checkpointId, Math::max) < checkpointId) {
                live.forEach(host -> host.checkpointCompleted(plan.topology(), checkpointId));
            }
        }
    }

    private HostRuntime startHost(String name) {
        HostRuntime host = new HostRuntime(new HostId(name), registry, DataPlane.start(DataPlaneConfig.defaults()),
                TaskSettings.defaults(), Clock.systemUTC(), collector);
        all.add(host);
        live.add(host);
        return host;
    }

    @Test
    void recoversTheTasksOfALostHostAloneWhileEveryOtherTaskKeepsRunningAndEveryKeyIsExact() {
        ExecutionPlan plan = PlanExpander.expand(new TopologyValidator(registry).validate(new TopologySpecReader().read("""
                {"id": "local", "operators": [
                  {"id": "src", "type": "generator", "parallelism": 1,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": 30000}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "src"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""".formatted(COUNT, KEYS)))).withRecoveryMode(RecoveryMode.LOCAL);
        HostRuntime sources = startHost("host-a");
        HostRuntime counters = startHost("host-b");
        HostRuntime sinks = startHost("host-c");
        HostRuntime standby = startHost("host-d");
        Map<TaskId, HostId> hostOf = new HashMap<>();
        for (TaskSpec task : plan.tasks()) {
            String operator = task.id().operator().value();
            hostOf.put(task.id(), operator.equals("src") ? sources.id() : operator.equals("count") ? counters.id() : sinks.id());
        }
        Map<HostId, String> endpoints = all.stream().collect(Collectors.toMap(HostRuntime::id, HostRuntime::dataEndpoint));
        TaskPlacement placement = new TaskPlacement(hostOf, endpoints);
        collector.plan = plan;
        collector.taskCount = plan.tasks().size();
        List.of(sources, counters, sinks).forEach(host -> host.deploy(plan, placement));
        Map<TaskId, StreamTask> survivorsBefore = tasksOn(List.of(sources, sinks));

        AtomicLong nextCheckpoint = new AtomicLong();
        coordinator.scheduleAtFixedRate(() -> sources.triggerCheckpoint(plan.topology(), nextCheckpoint.incrementAndGet()),
                100, 200, TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(20)).until(() -> collector.latestComplete.get() >= 2);
        assertThat(status(sources, "src")).as("the host must die mid-stream").isEqualTo(TaskStatus.RUNNING);

        counters.close(); // the host of both counting tasks dies: their state and in-flight frames are lost
        live.remove(counters);
        long restoreFrom = collector.latestComplete.get();
        Set<TaskId> lost = Set.copyOf(plan.tasksOf(OperatorId.of("count")).stream().map(TaskSpec::id).toList());
        Map<TaskId, HostId> moved = new HashMap<>(hostOf);
        lost.forEach(task -> moved.put(task, standby.id()));
        TaskPlacement newPlacement = new TaskPlacement(moved, endpoints);
        standby.recoverInPlace(plan, newPlacement, collector.byCheckpoint.get(restoreFrom), lost);
        sources.outboundChannelsTo(plan, lost).forEach(channel -> sources.redirect(channel, standby.dataEndpoint()));

        await().atMost(Duration.ofSeconds(60)).until(() -> status(sinks, "sink") == TaskStatus.FINISHED);
        Map<String, Object> actual = new TreeMap<>();
        for (TaskSpec sink : plan.tasksOf(OperatorId.of("sink"))) {
            actual.putAll(sinks.queryAll(sink.id(), "latest", Integer.MAX_VALUE).join());
        }
        assertThat(actual).isEqualTo(MultiHostKeyedCountTest.expectedCounts(COUNT, KEYS));
        assertThat(tasksOn(List.of(sources, sinks))).as("no source or sink task was replaced")
                .containsExactlyInAnyOrderEntriesOf(survivorsBefore);
        assertThat(recordsIn(sources, "src")).as("the source never rewound: it emitted every event once")
                .isEqualTo(COUNT);
        assertThat(recordsIn(sinks, "sink")).as("no regenerated count reached a sink twice").isEqualTo(COUNT);
        assertThat(recordsIn(standby, "count")).as("the recovered tasks reprocessed only what followed the checkpoint")
                .isPositive().isLessThan(COUNT);
    }

    private static Map<TaskId, StreamTask> tasksOn(List<HostRuntime> hosts) {
        Map<TaskId, StreamTask> tasks = new HashMap<>();
        for (HostRuntime host : hosts) {
            for (TaskReport report : host.taskReports()) {
                TaskId id = TaskId.parse(report.task());
                tasks.put(id, host.task(id).orElseThrow());
            }
        }
        return tasks;
    }

    private static TaskStatus status(HostRuntime host, String operator) {
        return host.taskReports().stream().filter(report -> report.task().contains("/" + operator + "#"))
                .map(TaskReport::status).reduce((a, b) -> a == b ? a : TaskStatus.RUNNING).orElseThrow();
    }

    private static long recordsIn(HostRuntime host, String operator) {
        return host.taskReports().stream().filter(report -> report.task().contains("/" + operator + "#"))
                .mapToLong(TaskReport::recordsIn).sum();
    }
}
