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

    /** The hosts the upstream host named, in order, as their connections dropped. */
    private final List<HostId> suspected = new CopyOnWriteArrayList<>();

    /** The host of the source: it reports the peers whose connections dropped to {@link #suspected}. */
    private HostRuntime upstreamHost() {
        HostRuntime upstream = startHost("host-up");
        upstream.onPeerHostDisconnected(suspected::add);
        return upstream;
    }

    /** An endless paced source feeding a sink, one task each. */
    private static ExecutionPlan sourceToSink(String id) {
        return PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 100000000, "ratePerSecond": 1000}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}""".formatted(id)));
    }

    @Test
    void closingTheHostOfADownstreamTaskNamesThatHostToTheUpstreamOne() {
        HostRuntime upstream = upstreamHost();
        HostRuntime downstream = startHost("host-down");
        HostRuntime bystander = startHost("host-bystander");
        ExecutionPlan plan = sourceToSink("hint");
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

    /**
     * A task moved by a local recovery: the upstream host learns with the redirect which host runs it now, and names
     * that host when its connection there drops (it is in no placement the upstream host was deployed with).
     */
    @Test
    void closingTheHostADownstreamTaskWasMovedToNamesThatHostToTheUpstreamOne() {
        HostRuntime upstream = upstreamHost();
        HostRuntime downstream = startHost("host-down");
        HostRuntime standby = startHost("host-standby");
        // in LOCAL mode the upstream keeps what it sent, which it replays to the moved sink
        ExecutionPlan plan = sourceToSink("moved").withRecoveryMode(RecoveryMode.LOCAL);
        TaskId source = plan.tasksOf(OperatorId.of("source")).get(0).id();
        TaskId sink = plan.tasksOf(OperatorId.of("sink")).get(0).id();
        upstream.deploy(plan, new TaskPlacement(Map.of(source, upstream.id(), sink, downstream.id()),
                Map.of(upstream.id(), upstream.dataEndpoint(), downstream.id(), downstream.dataEndpoint())));
        standby.deploy(plan, new TaskPlacement(Map.of(source, upstream.id(), sink, standby.id()),
                Map.of(upstream.id(), upstream.dataEndpoint(), standby.id(), standby.dataEndpoint())));

        upstream.redirectChannelsTo(plan.topology(), Map.of(sink, standby.dataEndpoint()),
                Map.of(standby.dataEndpoint(), standby.id()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> standby.task(sink).orElseThrow().metrics().recordsIn() > 0);
        standby.close();
        hosts.remove(standby);

        await().atMost(Duration.ofSeconds(5)).until(() -> suspected.contains(standby.id()));
        assertThat(suspected).doesNotContain(downstream.id());
    }
}
