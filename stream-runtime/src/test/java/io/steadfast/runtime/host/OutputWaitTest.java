package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tasks on two hosts (real sockets on loopback) report how long their records waited in output frames and how many
 * frames they took in: a quiet channel's records wait for the end of the 20 ms linger period, a busy one's for the
 * 1 ms short linger at most.
 */
@Timeout(60)
class OutputWaitTest {

    private final OperatorRegistry registry = OperatorRegistry.of(List.of());
    private final List<HostRuntime> hosts = new ArrayList<>();

    @AfterEach
    void closeHosts() {
        hosts.forEach(HostRuntime::close);
    }

    @Test
    void aQuietChannelsRecordsWaitForTheLingerABusyOnesForTheShortLinger() {
        Map<String, TaskReport> quiet = reportsOfAJobAt("quiet", 500);
        Map<String, TaskReport> busy = reportsOfAJobAt("busy", 100_000);

        // 500 records/s: 10 a linger period of 20 ms, too few for the short linger, so a record waits for the end of
        // the period it fell in, 10 ms on average
        assertThat(quiet.get("source").outputWaitMillis()).isBetween(4.0, 25.0);
        assertThat(quiet.get("count").outputWaitMillis()).isBetween(4.0, 25.0);
        // 100,000 records/s: a frame has its 64 records within a millisecond and leaves a millisecond after its first
        assertThat(busy.get("source").outputWaitMillis()).isBetween(0.0, 2.5);
        assertThat(busy.get("count").outputWaitMillis()).isBetween(0.0, 2.5);
        assertThat(quiet.get("sink").outputWaitMillis()).as("a sink sends nothing").isNull();

        // the count takes in a frame per linger period (and the odd watermark-only one), not one per record
        assertThat(quiet.get("count").framesInPerSecond()).isBetween(20.0, 120.0);
        assertThat(quiet.get("count").recordsInPerSecond()).isBetween(300.0, 700.0);
        assertThat(busy.get("source").framesInPerSecond()).as("a source's polls that returned events")
                .isPositive();
    }

    /** Runs generator → keyed-count → sink at {@code ratePerSecond} across two hosts; the reports per operator. */
    private Map<String, TaskReport> reportsOfAJobAt(String id, long ratePerSecond) {
        HostRuntime a = startHost(id + "-a");
        HostRuntime b = startHost(id + "-b");
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 0, "keys": 50, "ratePerSecond": %d}},
                  {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
                ]}""".formatted(id, ratePerSecond)));
        TaskPlacement placement = MultiHostKeyedCountTest.roundRobin(plan, List.of(a, b));
        a.deploy(plan, placement);
        b.deploy(plan, placement);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(600)).until(() -> {
            Map<String, TaskReport> reports = reportsByOperator(a, b);
            return reports.size() == 3 && reports.get("sink").recordsInPerSecond() > 0
                    && reports.get("count").outputWaitMillis() != null
                    && reports.get("source").outputWaitMillis() != null;
        });
        return reportsByOperator(a, b);
    }

    private static Map<String, TaskReport> reportsByOperator(HostRuntime... on) {
        List<TaskReport> all = new ArrayList<>();
        for (HostRuntime host : on) {
            all.addAll(host.taskReports());
        }
        return all.stream().collect(Collectors.toMap(r -> r.task().substring(r.task().indexOf('/') + 1,
                r.task().indexOf('#')), r -> r, (x, y) -> x));
    }

    private HostRuntime startHost(String name) {
        HostRuntime host = new HostRuntime(new HostId(name), registry, DataPlane.start(DataPlaneConfig.defaults()),
                TaskSettings.defaults(), Clock.systemUTC());
        hosts.add(host);
        return host;
    }
}
