package io.steadfast.host.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.protocol.problem.FieldError;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
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
import io.steadfast.runtime.recovery.InPlaceRestore;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host refuses, before building anything, a deployment or an in-place recovery that would take it beyond its
 * limits, and what it runs keeps running; on a real runtime and data plane.
 */
@Timeout(60)
class ProcessingNodeCapacityTest {

    private static final HostId HERE = new HostId("host-here");
    private static final HostId ELSEWHERE = new HostId("host-elsewhere");

    private final OperatorRegistry registry = OperatorRegistry.load();
    private final HostRuntime runtime = new HostRuntime(HERE, registry, DataPlane.start(DataPlaneConfig.defaults()),
            TaskSettings.defaults(), Clock.systemUTC());
    private final ProcessingNode node = new ProcessingNode(runtime, registry,
            new TaskMeters(new SimpleMeterRegistry(), runtime), Clock.systemUTC(), new HostLimits(5, 12));

    @AfterEach
    void close() {
        node.close();
    }

    /** A generator that never ends feeding a sink, at the given parallelism each. */
    private static ExecutionPlan plan(String topology, int sources, int sinks) {
        return PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d,
                   "config": {"count": 0, "ratePerSecond": 200}},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": %d, "inputs": [{"from": "source"}]}
                ]}""".formatted(topology, sources, sinks)));
    }

    private static TaskPlacement allHere(ExecutionPlan plan) {
        Map<TaskId, HostId> hosts = new HashMap<>();
        plan.tasks().stream().map(TaskSpec::id).forEach(task -> hosts.put(task, HERE));
        return new TaskPlacement(hosts, Map.of(HERE, "tcp://127.0.0.1:1"));
    }

    private long recordsOutOf(String topology) {
        return node.taskReports().stream().filter(report -> report.task().startsWith(topology + "/source"))
                .mapToLong(TaskReport::recordsOut).sum();
    }

    private void assertKeepsRunning(String topology) {
        long before = recordsOutOf(topology);
        await().atMost(Duration.ofSeconds(20)).until(() -> recordsOutOf(topology) > before + 10);
        assertThat(node.taskReports()).filteredOn(report -> report.task().startsWith(topology + "/"))
                .extracting(TaskReport::status).containsOnly(TaskStatus.RUNNING);
    }

    @Test
    void refusesADeploymentBeyondItsTaskLimitAndKeepsRunningWhatItRuns() {
        ExecutionPlan running = plan("running", 1, 1);
        List<TaskId> started = node.deploy(running, allHere(running));
        ExecutionPlan big = plan("big", 2, 2);

        DeploymentRejectedException refusal = catchThrowableOfType(DeploymentRejectedException.class,
                () -> node.deploy(big, allHere(big)));

        assertThat(refusal.reason()).isEqualTo(DeploymentRejectedException.Reason.OVER_CAPACITY);
        assertThat(refusal.topology()).isEqualTo(TopologyId.of("big"));
        assertThat(refusal.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.operator()).as("the topology as a whole").isNull();
            assertThat(problem.field()).isEqualTo("tasks");
            assertThat(problem.message()).isEqualTo("4 tasks of topology 'big' would make 6 on this host with the 2"
                    + " it runs, over its limit of 5 (steadfast.host.limits.max-tasks)");
        });
        assertThat(refusal).hasMessageStartingWith("Host host-here cannot take topology 'big' beside what it runs;"
                + " spread the topology over more hosts, lower its parallelism, or raise steadfast.host.limits.*");
        assertThat(runtime.topologies()).containsExactly(TopologyId.of("running"));
        assertThat(node.deployments()).containsExactly(new HostDeployment(TopologyId.of("running"), 0, started));
        assertKeepsRunning("running");
    }

    @Test
    void refusesADeploymentBeyondItsChannelLimitNamingTheHeapTheyWouldTake() {
        ExecutionPlan running = plan("running", 1, 1);
        node.deploy(running, allHere(running));
        ExecutionPlan wide = plan("wide", 3, 4);
        Map<TaskId, HostId> hosts = new HashMap<>();
        wide.tasks().forEach(task -> hosts.put(task.id(), task.id().operator().value().equals("source") ? HERE
                : ELSEWHERE));
        TaskPlacement sourcesHere = new TaskPlacement(hosts, Map.of(HERE, "tcp://127.0.0.1:1", ELSEWHERE,
                "tcp://127.0.0.1:2"));

        DeploymentRejectedException refusal = catchThrowableOfType(DeploymentRejectedException.class,
                () -> node.deploy(wide, sourcesHere));

        assertThat(refusal.reason()).isEqualTo(DeploymentRejectedException.Reason.OVER_CAPACITY);
        assertThat(refusal.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.field()).isEqualTo("channels");
            assertThat(problem.message()).startsWith("12 channels of topology 'wide' would make 13 on this host with"
                    + " the 1 it runs, over its limit of 12 (steadfast.host.limits.max-channels); they would take"
                    + " about 468 KiB of heap");
        });
        assertThat(runtime.topologies()).containsExactly(TopologyId.of("running"));
        assertKeepsRunning("running");
    }

    @Test
    void hasRoomAgainOnceATopologyIsCancelled() {
        ExecutionPlan first = plan("first", 2, 1);
        node.deploy(first, allHere(first));
        ExecutionPlan second = plan("second", 2, 1);
        assertThat(catchThrowableOfType(DeploymentRejectedException.class, () -> node.deploy(second, allHere(second))))
                .isNotNull();

        node.cancel(TopologyId.of("first"));

        assertThat(node.deploy(second, allHere(second))).hasSize(3);
    }

    @Test
    void refusesAnInPlaceRecoveryBeyondItsLimitsBeforeLookingAtTheSnapshots() {
        ExecutionPlan running = plan("running", 2, 2);
        node.deploy(running, allHere(running));
        ExecutionPlan lost = plan("lost", 2, 2);
        Set<TaskId> lostTasks = Set.of(TaskId.parse("lost/source#0"), TaskId.parse("lost/source#1"));
        InPlaceRestore noSnapshots = new InPlaceRestore(1, Map.of(), Map.of(), 1, lostTasks, System.nanoTime());

        DeploymentRejectedException overLimit = catchThrowableOfType(DeploymentRejectedException.class,
                () -> node.recoverInPlace(lost, allHere(lost), lostTasks, noSnapshots));
        node.cancel(TopologyId.of("running"));
        DeploymentRejectedException withRoom = catchThrowableOfType(DeploymentRejectedException.class,
                () -> node.recoverInPlace(lost, allHere(lost), lostTasks, noSnapshots));

        assertThat(overLimit.reason()).isEqualTo(DeploymentRejectedException.Reason.OVER_CAPACITY);
        assertThat(overLimit.problems()).extracting(FieldError::field).containsExactly("tasks");
        assertThat(overLimit.problems().get(0).message()).startsWith("2 tasks of topology 'lost' would make 6");
        assertThat(withRoom.reason()).as("past the limits, the missing snapshots are found")
                .isEqualTo(DeploymentRejectedException.Reason.INVALID_TASKS);
    }
}
