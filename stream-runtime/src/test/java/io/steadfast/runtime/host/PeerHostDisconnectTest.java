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
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A host learns, by name, of a peer host whose data-plane connection dropped: real runtimes and sockets. */
@Timeout(60)
class PeerHostDisconnectTest {

    private final OperatorRegistry registry = OperatorRegistry.of(List.of());
    private final List<HostRuntime> hosts = new CopyOnWriteArrayList<>();

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
    void closingTheHostOfADownstreamTaskNamesThatHostToTheUpstreamOne() {
        HostRuntime upstream = startHost("host-up");
        HostRuntime downstream = startHost("host-down");
        HostRuntime bystander = startHost("host-bystander");
        List<HostId> suspected = new CopyOnWriteArrayList<>();
        upstream.onPeerHostDisconnected(suspected::add);
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "hint", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 100000000, "ratePerSecond": 1000}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}"""));
        TaskId sink = plan.tasksOf(OperatorId.of("sink")).get(0).id();
        TaskPlacement placement = new TaskPlacement(Map.of(plan.tasksOf(OperatorId.of("source")).get(0).id(),
                upstream.id(), sink, downstream.id()), Map.of(upstream.id(), upstream.dataEndpoint(),
                downstream.id(), downstream.dataEndpoint(), bystander.id(), bystander.dataEndpoint()));
        upstream.deploy(plan, placement);
        downstream.deploy(plan, placement);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> downstream.task(sink).orElseThrow().metrics().recordsIn() > 0);

        downstream.close();
        hosts.remove(downstream);

        await().atMost(Duration.ofSeconds(5)).until(() -> !suspected.isEmpty());
        assertThat(suspected).containsExactly(downstream.id());
        bystander.close();
        hosts.remove(bystander);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> suspected.size() == 1);
    }
}
