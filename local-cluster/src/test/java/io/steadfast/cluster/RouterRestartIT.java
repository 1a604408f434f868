package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RecoveryView;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.TaskView;
import io.steadfast.cluster.client.TopologyView;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.progress.RecoveryLine;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static ClusterProcesses processes;
    private static ClusterStartup startup;
    private static RouterClient router;

    @BeforeAll
    static void startCheckpointServiceRouterAndTwoHosts() {
        RepoLayout layout = RepoLayout.fromWorkingDirectory();
        List<Path> missing = List.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST).stream()
                .map(layout::jar).filter(jar -> !Files.isRegularFile(jar)).toList();
        assumeThat(missing)
                .as("Skipping the router restart test: service jars %s are not built; run %s from %s",
                        missing, RepoLayout.BUILD_COMMAND, layout.root())
                .isEmpty();
        Path runDir = layout.root().resolve("local-cluster/target/e2e-run")
                .resolve("router-restart-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        processes = new ClusterProcesses(layout, runDir);
        startup = new ClusterStartup(processes, STARTUP_TIMEOUT, line -> System.out.println("[e2e] " + line));
        startup.startCheckpointServiceOnFreePort();
        router = startup.startRouterOnFreePort();
        startup.startHosts(router, 2);
    }

    @AfterAll
    static void stopCluster() {
        if (processes != null) {
            processes.close();
            System.out.println("[e2e] logs in " + processes.runDir());
        }
    }

    @Test
    void aRestartedRouterResumesTheRunningTopologyAndStillRecoversFromAHostFailure() throws Exception {
        TopologyId id = router.deploy(wordCount("restart-wc")).id();
        await("2 completed checkpoints").atMost(Duration.ofSeconds(60)).pollInterval(POLL)
                .until(() -> router.checkpoints(id).completedCount() >= 2);
        int epochBefore = detail(id).path("epoch").asInt();
        long sinkBefore = sinkRecordsIn(router.topology(id));
        long lastCheckpointBefore = router.checkpoints(id).latestCompletedCheckpoint().orElseThrow().checkpointId();

        int port = processes.routerUrl().getPort();
        System.out.println("[e2e] killing the router (SIGKILL); sink records in " + sinkBefore + ", epoch "
                + epochBefore + ", latest completed checkpoint " + lastCheckpointBefore);
        processes.killRouter();
        router = startup.startRouter(port);

        JsonNode list = get("/api/v1/topologies");
        List<String> ids = new ArrayList<>();
        list.forEach(t -> ids.add(t.path("id").asString()));
        assertThat(ids).as("the restarted router lists the topology from its store").contains(id.value());

        // The hosts re-register; their reports show the tasks went on running all along, never redeployed.
        await("the sinks report more input than before the router was killed").atMost(Duration.ofSeconds(60))
                .pollInterval(POLL).until(() -> sinkRecordsIn(router.topology(id)) > sinkBefore);
        assertThat(router.topology(id).allTasksFinished()).as("still running after the router restart").isFalse();
        assertThat(detail(id).path("epoch").asInt()).as("not redeployed").isEqualTo(epochBefore);
        assertThat(router.recoveries()).filteredOn(r -> r.topology().equals(id)).isEmpty();
        await("a new checkpoint after the restart, with a higher id").atMost(Duration.ofSeconds(60)).pollInterval(POLL)
                .until(() -> router.checkpoints(id).latestCompletedCheckpoint()
                        .filter(c -> c.checkpointId() > lastCheckpointBefore).isPresent());

        HostId victim = router.topology(id).tasks().stream().filter(t -> t.task().contains("/count#") && !t.isFinished() && t.host() != null)
                .map(TaskView::host).findFirst().orElseThrow();
        System.out.println("[e2e] killing " + victim + " (SIGKILL)");
        processes.killHost(victim);
        AtomicReference<RecoveryView> recovery = new AtomicReference<>();
        await("recovery after %s was killed".formatted(victim)).atMost(Duration.ofSeconds(90)).pollInterval(POLL)
                .failFast(() -> router.recoveries().stream().filter(r -> r.topology().equals(id) && r.isFailed())
                        .findFirst().ifPresent(r -> {
                            throw new AssertionError("A recovery FAILED: " + RecoveryLine.format(r));
                        }))
                .until(() -> router.recoveries().stream().filter(r -> r.topology().equals(id)
                        && r.failedHost().equals(victim) && r.isRecovered()).peek(recovery::set).findFirst().isPresent());
        System.out.println("[e2e] " + RecoveryLine.format(recovery.get()));

        await("every task FINISHED").atMost(Duration.ofSeconds(150)).pollInterval(POLL)
                .until(() -> router.topology(id).allTasksFinished());
        Map<String, Long> counts = new TreeMap<>();
        router.results(id, SINK, OptionalInt.empty()).values().forEach((key, value) -> counts.put(key, value.asLong()));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(LocalClusterIT.expectedCounts(COUNT, KEYS));
        assertThat(router.delete(id)).isTrue();
    }

    private static long sinkRecordsIn(TopologyView view) {
        return view.tasks().stream().filter(t -> t.task().contains("/sink#")).mapToLong(TaskView::recordsIn).sum();
    }

    private static JsonNode detail(TopologyId id) throws IOException, InterruptedException {
        return get("/api/v1/topologies/" + id.value());
    }

    private static JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(router.baseUrl().resolve(path)).GET()
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET " + path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static String wordCount(String id) {
        return """
                {"id": "%s",
                 "operators": [
                   {"id": "source", "type": "generator", "parallelism": 2,
                    "config": {"count": %d, "keys": %d, "ratePerSecond": %d}},
                   {"id": "count", "type": "keyed-count", "parallelism": 2,
                    "inputs": [{"from": "source", "partitioning": "key"}]},
                   {"id": "sink", "type": "latest-value-sink", "parallelism": 2,
                    "inputs": [{"from": "count", "partitioning": "key"}]}
                 ]}
                """.formatted(id, COUNT, KEYS, RATE_PER_SECOND);
    }
}
