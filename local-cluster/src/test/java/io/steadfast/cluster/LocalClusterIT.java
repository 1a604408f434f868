package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.DeploymentView;
import io.steadfast.cluster.client.Problem;
import io.steadfast.cluster.client.ResultsView;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.TopologyRejectedException;
import io.steadfast.cluster.client.TopologyView;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * End to end with real processes: the checkpoint-service, router and two host jars started on loopback, a word count deployed
 * through REST, every key's final count checked against the generator's deterministic distribution.
 * Logs stay in {@code local-cluster/target/e2e-run/<timestamp>/}.
 */
@Timeout(300)
class LocalClusterIT {

    private static final int COUNT = 300_000;
    private static final int KEYS = 1000;
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

    private static ClusterProcesses processes;
    private static RouterClient router;

    @BeforeAll
    static void startCheckpointServiceRouterAndTwoHosts() {
        RepoLayout layout = RepoLayout.fromWorkingDirectory();
        List<Path> missing = List.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST).stream()
                .map(layout::jar).filter(jar -> !Files.isRegularFile(jar)).toList();
        assumeThat(missing)
                .as("Skipping the end-to-end test: service jars %s are not built; run %s from %s",
                        missing, RepoLayout.BUILD_COMMAND, layout.root())
                .isEmpty();

        Path runDir = layout.root().resolve("local-cluster/target/e2e-run")
                .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        processes = new ClusterProcesses(layout, runDir);
        ClusterStartup startup = new ClusterStartup(processes, STARTUP_TIMEOUT, line -> System.out.println("[e2e] " + line));
        startup.startCheckpointServiceOnFreePort();
        // The router's port must be known before the hosts start, so it cannot be 0: a free port is picked just
        // before the router starts, and the router is restarted on another port if that one was taken meanwhile.
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
    void countsEveryKeyExactlyAcrossTwoHosts() {
        DeploymentView deployment = router.deploy(wordCount("e2e-word-count", 2));
        TopologyId id = deployment.id();

        AtomicReference<TopologyView> last = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(500))
                .failFast("a task FAILED", () -> last.get() != null && last.get().anyTaskFailed())
                .until(() -> {
                    last.set(router.topology(id));
                    return last.get().allTasksFinished();
                });
        ResultsView results = router.results(id, new OperatorId("sink"), OptionalInt.empty());

        Map<String, Long> actual = new TreeMap<>();
        results.values().forEach((key, value) -> actual.put(key, value.asLong()));
        assertThat(actual).containsExactlyInAnyOrderEntriesOf(expectedCounts(COUNT, KEYS));
        assertThat(router.delete(id)).isTrue();
    }

    @Test
    void rejectsInvalidTopologyWithProblemNamingOperatorAndField() throws Exception {
        String invalid = wordCount("e2e-invalid", 0);

        assertThatThrownBy(() -> router.deploy(invalid))
                .isInstanceOfSatisfying(TopologyRejectedException.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(400);
                    assertThat(e.problem().errors()).anySatisfy(error -> {
                        assertThat(error.operator()).isEqualTo("count");
                        assertThat(error.field()).contains("parallelism");
                    });
                });
        HttpResponse<String> raw = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(router.baseUrl().resolve("/api/v1/topologies"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(invalid)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(raw.statusCode()).isEqualTo(400);
        assertThat(raw.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(router.json().readValue(raw.body(), Problem.class).detail()).isNotBlank();
    }

    /** The generator's distribution: key-k receives count/keys events, plus one for the first count%keys keys. */
    static Map<String, Long> expectedCounts(int count, int keys) {
        Map<String, Long> expected = new TreeMap<>();
        for (int k = 0; k < keys; k++) {
            expected.put("key-" + k, (long) (count / keys + (k < count % keys ? 1 : 0)));
        }
        return expected;
    }

    private static String wordCount(String id, int countParallelism) {
        return """
                {"id": "%s",
                 "operators": [
                   {"id": "source", "type": "generator", "parallelism": 2,
                    "config": {"count": %d, "keys": %d, "ratePerSecond": 0}},
                   {"id": "count", "type": "keyed-count", "parallelism": %d,
                    "inputs": [{"from": "source", "partitioning": "key"}]},
                   {"id": "sink", "type": "latest-value-sink", "parallelism": 2,
                    "inputs": [{"from": "count", "partitioning": "key"}]}
                 ]}
                """.formatted(id, COUNT, KEYS, countParallelism);
    }
}
