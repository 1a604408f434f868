package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.TopologyRejectedException;
import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.router.TopologySubmitted;
import io.steadfast.protocol.router.TopologySubmitted.PlacedTask;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * End to end with real processes: a voter-service started from its jar beside a host registers with the router as a
 * VOTER, takes no task of a topology without N-version operators, and once killed leaves the router refusing a
 * topology that has one, saying to start a voter-service. Logs stay in
 * {@code local-cluster/target/e2e-run/voter-hosts-<timestamp>/}.
 */
@Timeout(300)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VoterHostsIT {

    private static final HostId HOST = new HostId("host-1");
    private static final HostId VOTER = new HostId("voter-1");
    private static final String N_VERSION = """
            {"id": "e2e-n-version", "operators": [
              {"id": "source", "type": "generator", "config": {"count": 1000}},
              {"id": "score", "inputs": [{"from": "source"}],
               "versions": [{"type": "keyed-count"}, {"type": "keyed-count"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "score"}]}
            ]}""";

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("voter-hosts", 1).andVoters(1);

    @Test
    @Order(1)
    void theVoterRegistersAsOneAndTakesNoTaskOfATopologyWithoutVotes() {
        RouterClient router = CLUSTER.router();

        assertThat(router.hosts()).extracting(HostView::hostId, HostView::kind, HostView::status)
                .contains(tuple(HOST, HostKind.PE, HostView.LIVE), tuple(VOTER, HostKind.VOTER, HostView.LIVE));
        TopologySubmitted submitted = router.deploy(TestTopologies.wordCount("e2e-beside-a-voter", 1000, 10, 0));
        assertThat(submitted.tasks()).extracting(PlacedTask::host).containsOnly(HOST);
        assertThat(router.delete(submitted.id())).isTrue();
    }

    @Test
    @Order(2)
    void withItsVoterKilledTheRouterRefusesAnNVersionTopologySayingToStartOne() {
        RouterClient router = CLUSTER.router();
        CLUSTER.processes().killHost(VOTER);
        await("voter-1 DEAD in the router").atMost(Duration.ofSeconds(30)).until(() -> router.hosts().stream()
                .anyMatch(host -> host.hostId().equals(VOTER) && !host.isLive()));

        assertThatThrownBy(() -> router.deploy(N_VERSION)).isInstanceOfSatisfying(TopologyRejectedException.class,
                e -> {
                    assertThat(e.problem().status()).isEqualTo(409);
                    assertThat(e.getMessage()).contains("[score]", "start a voter-service");
                });
    }
}
