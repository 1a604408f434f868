package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.TopologyRejectedException;
import io.steadfast.protocol.problem.Problem;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * End to end with real processes: the checkpoint-service, router and two host jars started on loopback, a word count deployed
 * through REST, every key's final count checked against the generator's deterministic distribution.
 * Logs stay in {@code local-cluster/target/e2e-run/word-count-<timestamp>/}.
 */
@Timeout(300)
class LocalClusterIT {

    private static final int COUNT = 300_000;
    private static final int KEYS = 1000;
    private static final OperatorId SINK = new OperatorId("sink");

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("word-count", 2);

    @Test
    void countsEveryKeyExactlyAcrossTwoHosts() {
        RouterClient router = CLUSTER.router();
        TopologyId id = router.deploy(TestTopologies.wordCount("e2e-word-count", COUNT, KEYS, 0)).id();

        Map<String, Long> actual = CLUSTER.finalCounts(id, SINK, Duration.ofSeconds(240));

        assertThat(actual).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(COUNT, KEYS));
        assertThat(router.delete(id)).isTrue();
    }

    @Test
    void rejectsInvalidTopologyWithProblemNamingOperatorAndField() throws Exception {
        RouterClient router = CLUSTER.router();
        String invalid = TestTopologies.wordCount("e2e-invalid", COUNT, KEYS, 0, 0);

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
}
