package io.steadfast.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;

/**
 * The router and two real pe-host-service applications in one JVM on random ports: hosts register, a word
 * count is placed across both, runs over the JeroMQ data plane, and its results are read back through the router.
 */
@Timeout(180)
class WordCountAcrossTwoHostsIT {

    private static final long COUNT = 200_000;
    private static final int KEYS = 500;

    private static InProcessCluster cluster;
    private static RestClient api;

    @BeforeAll
    static void startCluster() {
        cluster = InProcessCluster.builder().host("it-host-a").host("it-host-b").start();
        api = cluster.api();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void wordCountOverTwoHostsGivesEveryKeyItsExactCount() {
        cluster.awaitHostsLive(Duration.ofSeconds(30));

        ResponseEntity<JsonNode> submitted = api.post().uri("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON)
                .body("""
                        {"id": "wc-it", "operators": [
                          {"id": "source", "type": "generator", "parallelism": 2, "config": {"count": %d, "keys": %d}},
                          {"id": "count", "type": "keyed-count", "parallelism": 2,
                           "inputs": [{"from": "source", "partitioning": "key"}]},
                          {"id": "sink", "type": "latest-value-sink", "parallelism": 2,
                           "inputs": [{"from": "count", "partitioning": "key"}]}
                        ]}""".formatted(COUNT, KEYS)).retrieve().toEntity(JsonNode.class);
        assertThat(submitted.getStatusCode().value()).as("%s", submitted.getBody()).isEqualTo(201);
        assertThat(submitted.getHeaders().getLocation()).hasPath("/api/v1/topologies/wc-it");
        JsonNode tasks = submitted.getBody().get("tasks");
        assertThat(tasks.valueStream().map(t -> t.get("host").asString()).distinct())
                .containsExactlyInAnyOrder("it-host-a", "it-host-b");

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() ->
                api.get().uri("/api/v1/topologies/wc-it").retrieve().body(JsonNode.class)
                        .get("tasks").valueStream().allMatch(t -> t.get("status").asString().equals("FINISHED")));

        JsonNode results = api.get().uri("/api/v1/topologies/wc-it/results/sink?limit=100000").retrieve()
                .body(JsonNode.class);
        Map<String, Long> actual = new TreeMap<>();
        results.get("values").properties().forEach(entry -> actual.put(entry.getKey(), entry.getValue().asLong()));
        Map<String, Long> expected = new TreeMap<>();
        for (int k = 0; k < KEYS; k++) {
            expected.put("key-" + k, COUNT / KEYS + (k < COUNT % KEYS ? 1 : 0));
        }
        assertThat(actual).hasSize(KEYS);
        expected.forEach((key, count) -> assertThat(actual.get(key)).as("count of %s", key).isEqualTo(count));

        JsonNode one = api.get().uri("/api/v1/topologies/wc-it/results/sink?key=key-7").retrieve().body(JsonNode.class);
        assertThat(one.get("value").asLong()).isEqualTo(expected.get("key-7"));

        // the path form of a host's state query, task id URL-encoded, through the real Tomcat
        String hostUrl = InProcessCluster.urlOf(cluster.host("it-host-a"));
        String sinkOnA = tasks.valueStream().filter(t -> t.get("host").asString().equals("it-host-a"))
                .map(t -> t.get("task").asString()).filter(t -> t.contains("/sink#")).findFirst().orElseThrow();
        ResponseEntity<JsonNode> byPath = api.get().uri(URI.create(hostUrl + "/api/v1/tasks/"
                        + sinkOnA.replace("/", "%2F").replace("#", "%23") + "/state/latest?limit=3"))
                .retrieve().toEntity(JsonNode.class);
        assertThat(byPath.getStatusCode().value()).as("%s", byPath.getBody()).isEqualTo(200);
        assertThat(byPath.getBody().get("values").size()).isEqualTo(3);

        assertThat(api.delete().uri("/api/v1/topologies/wc-it").retrieve().toBodilessEntity().getStatusCode().value())
                .isEqualTo(204);
        assertThat(api.get().uri("/api/v1/topologies/wc-it").retrieve().toBodilessEntity().getStatusCode().value())
                .isEqualTo(404);
        await().atMost(Duration.ofSeconds(10)).until(() -> api.get().uri("/api/v1/hosts").retrieve()
                .body(JsonNode.class).valueStream().allMatch(h -> h.get("tasks").isEmpty()));
    }
}
