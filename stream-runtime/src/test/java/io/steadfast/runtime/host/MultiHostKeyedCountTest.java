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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Several hosts in one JVM, real JeroMQ sockets on loopback, the production task runtime. */
@Timeout(120)
class MultiHostKeyedCountTest {

    private final OperatorRegistry registry = OperatorRegistry.of(List.of());
    private final List<HostRuntime> hosts = new ArrayList<>();

    @AfterEach
    void closeHosts() {
        hosts.forEach(HostRuntime::close);
    }

    private HostRuntime startHost(String name) {
        HostRuntime host = new HostRuntime(new HostId(name), registry, DataPlane.start(DataPlaneConfig.defaults()),
                TaskSettings.defaults(), Clock.systemUTC());
        hosts.add(host);
        return host;
    }

    @Test
    void finalKeyedCountsEqualTheExpectedCountsKeyByKey() {
        long count = 300_000;
        int keys = 997;
        TopologySpec spec = new TopologySpecReader().read("""
                {"id": "counts", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2, "config": {"count": %d, "keys": %d}},
                  {"id": "count", "type": "keyed-count", "parallelism": 3, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""".formatted(count, keys));
        new TopologyValidator(registry).validate(spec);
        ExecutionPlan plan = PlanExpander.expand(spec);
        List<HostRuntime> three = List.of(startHost("host-a"), startHost("host-b"), startHost("host-c"));
        TaskPlacement placement = roundRobin(plan, three);

        three.forEach(host -> host.deploy(plan, placement));

        List<TaskId> sinks = plan.tasksOf(OperatorId.of("sink")).stream().map(TaskSpec::id).toList();
        await().atMost(Duration.ofSeconds(90)).until(() -> sinks.stream()
                .allMatch(sink -> hostOf(sink, placement).task(sink).orElseThrow().status() == TaskStatus.FINISHED));
        Map<String, Object> actual = new TreeMap<>();
        for (TaskId sink : sinks) {
            actual.putAll(hostOf(sink, placement).queryAll(sink, "latest", Integer.MAX_VALUE).join());
        }
        assertThat(actual).isEqualTo(expectedCounts(count, keys));
        long sinkRecords = hosts.stream().flatMap(h -> h.taskReports().stream())
                .filter(r -> r.task().contains("/sink#")).mapToLong(TaskReport::recordsIn).sum();
        assertThat(sinkRecords).isEqualTo(count);
    }

    @Test
    void windowSumsAcrossHostsKeepEveryEventEvenWhenEventTimesRepeat() {
        long count = 60_000;
        int keys = 101;
        TopologySpec spec = new TopologySpecReader().read("""
                {"id": "sums", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2,
                   "config": {"count": %d, "keys": %d, "eventTimeStepMillis": 0}},
                  {"id": "sum", "type": "window-sum", "parallelism": 2, "config": {"windowMillis": 1},
                   "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 1, "inputs": [{"from": "sum"}]}
                ]}""".formatted(count, keys));
        ExecutionPlan plan = PlanExpander.expand(new TopologyValidator(registry).validate(spec));
        List<HostRuntime> two = List.of(startHost("host-a"), startHost("host-b"));
        TaskPlacement placement = roundRobin(plan, two);

        two.forEach(host -> host.deploy(plan, placement));

        TaskId sink = plan.tasksOf(OperatorId.of("sink")).get(0).id();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> hostOf(sink, placement).task(sink).orElseThrow().status() == TaskStatus.FINISHED);
        Map<String, Object> expected = new TreeMap<>();
        for (long i = 0; i < count; i++) {
            expected.merge("key-" + (i % keys), i % 10 + 1, (a, b) -> (Long) a + (Long) b);
        }
        assertThat(hostOf(sink, placement).queryAll(sink, "latest", Integer.MAX_VALUE).join()).isEqualTo(expected);
    }

    private HostRuntime hostOf(TaskId task, TaskPlacement placement) {
        HostId id = placement.hostOf(task);
        return hosts.stream().filter(h -> h.id().equals(id)).findFirst().orElseThrow();
    }

    static Map<String, Object> expectedCounts(long count, int keys) {
        Map<String, Object> expected = new TreeMap<>();
        for (int k = 0; k < keys; k++) {
            long perKey = count / keys + (k < count % keys ? 1 : 0);
            if (perKey > 0) {
                expected.put("key-" + k, perKey);
            }
        }
        return expected;
    }

    static TaskPlacement roundRobin(ExecutionPlan plan, List<HostRuntime> on) {
        Map<TaskId, HostId> assigned = new HashMap<>();
        Map<HostId, String> endpoints = new HashMap<>();
        on.forEach(host -> endpoints.put(host.id(), host.dataEndpoint()));
        int next = 0;
        for (TaskSpec task : plan.tasks()) {
            assigned.put(task.id(), on.get(next++ % on.size()).id());
        }
        return new TaskPlacement(assigned, endpoints);
    }
}
