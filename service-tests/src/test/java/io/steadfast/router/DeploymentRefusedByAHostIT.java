package io.steadfast.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;

/**
 * The router and two real pe-host-service applications in one JVM: the second host may run only 4 tasks, and a
 * topology placing 5 on each is refused by it after the first host started its share. The client gets 409 naming the
 * host, its counts and its limit, and nothing of the topology runs anywhere; one that fits deploys afterwards.
 */
@Timeout(180)
class DeploymentRefusedByAHostIT {

    private static InProcessCluster cluster;
    private static RestClient api;

    @BeforeAll
    static void startCluster() {
        cluster = InProcessCluster.builder().host("cap-a").host("cap-b", "--steadfast.host.limits.max-tasks=4").start();
        api = cluster.api();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static ResponseEntity<JsonNode> submit(String id, int parallelism) {
        return api.post().uri("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).body("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d, "config": {"count": 0, "ratePerSecond": 100}},
                  {"id": "count", "type": "keyed-count", "parallelism": %d, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""".formatted(id, parallelism, parallelism)).retrieve().toEntity(JsonNode.class);
    }

    private static JsonNode tasksOn(ConfigurableApplicationContext host) {
        String url = InProcessCluster.urlOf(host) + "/api/v1/tasks";
        return RestClient.create().get().uri(url).retrieve().body(JsonNode.class);
    }

    @Test
    void aHostsRefusalIsAnsweredWith409AndLeavesNothingOfTheTopologyRunning() {
        cluster.awaitHostsLive(Duration.ofSeconds(60));

        ResponseEntity<JsonNode> refused = submit("too-big", 4);

        assertThat(refused.getStatusCode().value()).as("%s", refused.getBody()).isEqualTo(409);
        JsonNode problem = refused.getBody();
        assertThat(problem.get("reason").asString()).isEqualTo("HOST_REFUSED");
        assertThat(problem.get("host").asString()).isEqualTo("cap-b");
        assertThat(problem.get("hostStatus").asInt()).isEqualTo(409);
        assertThat(problem.get("hostProblem").get("reason").asString()).isEqualTo("OVER_CAPACITY");
        assertThat(problem.get("hostProblem").get("errors").get(0).get("field").asString()).isEqualTo("tasks");
        assertThat(problem.get("detail").asString())
                .contains("Topology 'too-big' was not deployed")
                .contains("5 tasks of topology 'too-big' would make 5 on this host with the 0 it runs, over its limit"
                        + " of 4 (steadfast.host.limits.max-tasks)")
                .contains("It was cancelled on [cap-a], which had accepted it.");
        assertThat(api.get().uri("/api/v1/topologies/too-big").retrieve().toBodilessEntity().getStatusCode().value())
                .isEqualTo(404);
        assertThat(tasksOn(cluster.host("cap-a")).valueStream().map(task -> task.get("task").asString()))
                .noneMatch(task -> task.startsWith("too-big/"));
        assertThat(tasksOn(cluster.host("cap-b")).valueStream().map(task -> task.get("task").asString()))
                .noneMatch(task -> task.startsWith("too-big/"));

        ResponseEntity<JsonNode> fits = submit("fits", 1);

        assertThat(fits.getStatusCode().value()).as("%s", fits.getBody()).isEqualTo(201);
        assertThat(api.delete().uri("/api/v1/topologies/fits").retrieve().toBodilessEntity().getStatusCode().value())
                .isEqualTo(204);
    }
}
