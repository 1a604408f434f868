package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The router keeps its records in MongoDB (the checkpoint-service's embedded store): a word count runs on two
 * host processes, the router process is killed with SIGKILL and a new one started on the same port with the same
 * store. The new router lists the topology, its tasks never stopped (sink input kept growing, epoch unchanged,
 * no recovery), and it still recovers the topology when a host is killed afterwards, with exact counts per key.
 * Logs stay in {@code local-cluster/target/e2e-run/router-restart-<timestamp>/}.
 */
@Timeout(300)
class RouterRestartIT {

    private static final int KEYS = 1000;
    private static final int COUNT = 2_000_000;
    private static final int RATE_PER_SECOND = 40_000;
    private static final OperatorId SINK = new OperatorId("sink");
    private static final Duration POLL = Duration.ofMillis(200);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("router-restart", 2);

    @Test
    void aRestartedRouterResumesTheRunningTopologyAndStillRecoversFromAHostFailure() throws Exception {
        RouterClient router = CLUSTER.router();
        TopologyId id = router.deploy(TestTopologies.wordCount("restart-wc", COUNT, KEYS, RATE_PER_SECOND)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 2);
        int epochBefore = detail(id).path("epoch").asInt();
        long sinkBefore = CLUSTER.sinkRecordsIn(id, SINK);
        long lastCheckpointBefore = router.checkpoints(id).latestCompletedCheckpoint().orElseThrow().checkpointId()
                .value();

        CLUSTER.log("killing the router (SIGKILL); sink records in " + sinkBefore + ", epoch "
                + epochBefore + ", latest completed checkpoint " + lastCheckpointBefore);
        RouterClient restarted = CLUSTER.restartRouter();

        JsonNode list = get("/api/v1/topologies");
        List<String> ids = new ArrayList<>();
        list.forEach(t -> ids.add(t.path("id").asString()));
        assertThat(ids).as("the restarted router lists the topology from its store").contains(id.value());

        // The hosts re-register; their reports show the tasks went on running all along, never redeployed.
        await("the sinks report more input than before the router was killed").atMost(Duration.ofSeconds(60))
                .pollInterval(POLL).until(() -> CLUSTER.sinkRecordsIn(id, SINK) > sinkBefore);
        assertThat(restarted.topology(id).allTasksFinished()).as("still running after the router restart").isFalse();
        assertThat(detail(id).path("epoch").asInt()).as("not redeployed").isEqualTo(epochBefore);
        assertThat(restarted.recoveries()).filteredOn(r -> r.topology().equals(id)).isEmpty();
        CLUSTER.awaitCheckpointCompletedAfter(id, lastCheckpointBefore);

        HostId victim = CLUSTER.killHostRunningTasks(id);
        CLUSTER.awaitRecovered(id, victim, Duration.ofSeconds(90));

        Map<String, Long> counts = CLUSTER.finalCounts(id, SINK, Duration.ofSeconds(150));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(COUNT, KEYS));
        assertThat(restarted.delete(id)).isTrue();
    }

    private static JsonNode detail(TopologyId id) throws IOException, InterruptedException {
        return get("/api/v1/topologies/" + id.value());
    }

    private static JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(CLUSTER.router().baseUrl().resolve(path))
                .GET().timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET " + path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
