package io.steadfast.host.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-task record counts are counters (so that Prometheus' {@code rate()} and reset handling apply) over the
 * running tasks' own counts, tagged by topology, operator and subtask, and gone with the topology. On a real runtime.
 */
@Timeout(60)
class TaskMetersTest {

    private static final HostId HERE = new HostId("host-here");

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final OperatorRegistry registry = OperatorRegistry.load();
    private final HostRuntime runtime = new HostRuntime(HERE, registry, DataPlane.start(DataPlaneConfig.defaults()),
            TaskSettings.defaults(), Clock.systemUTC());
    private final ProcessingNode node = new ProcessingNode(runtime, registry, new TaskMeters(meters, runtime),
            Clock.systemUTC());

    @AfterEach
    void close() {
        node.close();
    }

    @Test
    void recordsInAndOutAreCountersOfEachRunningTaskAndLeaveWithItsTopology() {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "metered", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 1,
                   "config": {"count": 0, "ratePerSecond": 500}},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "source"}]}
                ]}"""));
        Map<TaskId, HostId> hosts = new HashMap<>();
        plan.tasks().stream().map(TaskSpec::id).forEach(task -> hosts.put(task, HERE));
        node.deploy(plan, new TaskPlacement(hosts, Map.of(HERE, "tcp://127.0.0.1:1")));

        await().atMost(Duration.ofSeconds(20)).until(() -> counter("steadfast.task.records.in", "sink", "0").count()
                + counter("steadfast.task.records.in", "sink", "1").count() > 10);
        FunctionCounter emitted = counter("steadfast.task.records.out", "source", "0");
        double before = emitted.count();
        await().atMost(Duration.ofSeconds(20)).until(() -> emitted.count() > before);
        assertThat(emitted.getId().getType()).isEqualTo(Meter.Type.COUNTER);
        assertThat(meters.find("steadfast.task.records.in").functionCounters()).as("one per task").hasSize(3);
        FunctionCounter residence = counter("steadfast.task.residence", "sink", "0");
        await().atMost(Duration.ofSeconds(20)).until(() -> residence.count() > 0);
        assertThat(residence.getId().getBaseUnit()).isEqualTo("seconds");
        assertThat(counter("steadfast.task.busy", "source", "0").count()).as("the source's polling").isPositive();
        FunctionCounter outputWait = counter("steadfast.task.output.wait", "source", "0");
        await().atMost(Duration.ofSeconds(20)).until(() -> outputWait.count() > 0
                && counter("steadfast.task.records.sent", "source", "0").count() > 0);
        assertThat(outputWait.getId().getBaseUnit()).isEqualTo("seconds");

        node.cancel(TopologyId.of("metered"));

        assertThat(meters.find("steadfast.task.records.in").meters()).isEmpty();
        assertThat(meters.find("steadfast.task.records.out").meters()).isEmpty();
        assertThat(meters.find("steadfast.task.residence").meters()).isEmpty();
        assertThat(meters.find("steadfast.task.output.wait").meters()).isEmpty();
    }

    private FunctionCounter counter(String name, String operator, String subtask) {
        FunctionCounter counter = meters.find(name).tags("topology", "metered", "operator", operator,
                "subtask", subtask).functionCounter();
        assertThat(counter).as("%s of %s#%s", name, operator, subtask).isNotNull();
        return counter;
    }
}
