package io.steadfast.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.host.snapshot.InMemorySnapshotStore;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;

/**
 * The router and two hosts in one JVM, sharing an in-memory checkpoint store (registered as beans before each
 * context starts, in place of the checkpoint-service): a rate-limited word count checkpoints every 500 ms, one
 * host is shut down mid-stream, the router detects it (through the other host's dropped data-plane connection
 * and a failed probe) and recovers every task onto the other host from the
 * latest completed checkpoint, and every key's final count is exact.
 */
@Timeout(180)
class GlobalRecoveryAcrossHostsIT {

    private static final long COUNT = 160_000;
    private static final int KEYS = 400;

    private static final InMemoryCheckpointRecords RECORDS = new InMemoryCheckpointRecords(Clock.systemUTC());
    private static final InMemorySnapshotStore SNAPSHOTS = new InMemorySnapshotStore();

    private static InProcessCluster cluster;
    private static RestClient api;

    @BeforeAll
    static void startCluster() {
        cluster = InProcessCluster.builder()
                .routerBean("sharedCheckpointRecords", RECORDS)
                .routerSetting("--steadfast.router.checkpoint.interval=500ms")
                .hostBean("snapshotStore", SNAPSHOTS)
                .heartbeatInterval(Duration.ofMillis(200))
                .host("rec-host-a").host("rec-host-b")
                .start();
        api = cluster.api();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static JsonNode get(String path) {
        return api.get().uri(path).retrieve().body(JsonNode.class);
    }

    private static long completedCheckpoints() {
        return get("/api/v1/topologies/rec-it/checkpoints").get("checkpoints").valueStream()
                .filter(c -> c.get("status").asString().equals("COMPLETED")).count();
    }

    @Test
    void recoversOntoTheSurvivingHostFromTheLatestCheckpointAndEveryKeyIsExact() {
        assertThat(cluster.host("rec-host-a").getBean("snapshotStore")).isSameAs(SNAPSHOTS);
        assertThat(cluster.router().getBean(CheckpointRecords.class)).isSameAs(RECORDS);
        cluster.awaitHostsLive(Duration.ofSeconds(30));
        var submitted = api.post().uri("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).body("""
                {"id": "rec-it", "recovery": {"mode": "GLOBAL"}, "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": 20000}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""".formatted(COUNT, KEYS)).retrieve().toEntity(JsonNode.class);
        assertThat(submitted.getStatusCode().value()).as("%s", submitted.getBody()).isEqualTo(201);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> completedCheckpoints() >= 2);
        assertThat(get("/api/v1/topologies/rec-it").get("status").asString()).as("mid-stream").isEqualTo("RUNNING");

        cluster.host("rec-host-b").close();

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonNode recoveries = get("/api/v1/recoveries");
            return recoveries.size() == 1 && recoveries.get(0).get("status").asString().equals("RECOVERED");
        });
        JsonNode recovery = get("/api/v1/recoveries").get(0);
        assertThat(recovery.get("topology").asString()).isEqualTo("rec-it");
        assertThat(recovery.get("failedHost").asString()).isEqualTo("rec-host-b");
        assertThat(recovery.get("epoch").asInt()).isEqualTo(1);
        assertThat(recovery.get("restoredFrom").asLong()).isPositive();
        // host A's data plane lost its connection to B, and B then failed its probe: declared before the 800 ms
        // heartbeat timeout, but not before it had missed a heartbeat (steadfast.router.suspicion.min-silence)
        assertThat(recovery.get("detectionCause").asString()).isEqualTo("DATA_PLANE_DISCONNECT");
        assertThat(recovery.get("detectionMillis").asLong()).isGreaterThanOrEqualTo(300);
        assertThat(recovery.get("restoreMillis").isNumber()).isTrue();
        assertThat(recovery.get("catchUpMillis").isNumber()).isTrue();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
                get("/api/v1/topologies/rec-it").get("status").asString().equals("FINISHED"));
        JsonNode detail = get("/api/v1/topologies/rec-it");
        assertThat(detail.get("epoch").asInt()).isEqualTo(1);
        assertThat(detail.get("recoveries").asLong()).isEqualTo(1);
        assertThat(detail.get("tasks").valueStream().map(t -> t.get("host").asString()).distinct())
                .containsExactly("rec-host-a");

        JsonNode results = get("/api/v1/topologies/rec-it/results/sink?limit=100000");
        Map<String, Long> actual = new TreeMap<>();
        results.get("values").properties().forEach(entry -> actual.put(entry.getKey(), entry.getValue().asLong()));
        assertThat(actual).hasSize(KEYS);
        for (int k = 0; k < KEYS; k++) {
            assertThat(actual.get("key-" + k)).as("count of key-%d", k).isEqualTo(COUNT / KEYS);
        }
    }
}
