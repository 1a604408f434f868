package io.steadfast.host.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A host reports its tasks' acks to the router, several of one checkpoint in one request; over real HTTP. */
class RouterCheckpointReporterTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<String> paths = new CopyOnWriteArrayList<>();
    private final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
    private HttpServer router;
    private RouterCheckpointReporter reporter;

    @BeforeEach
    void start() throws IOException {
        router = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        router.createContext("/api/v1/topologies/", this::accept);
        router.start();
        reporter = new RouterCheckpointReporter(RestClient.builder()
                .baseUrl("http://127.0.0.1:" + router.getAddress().getPort()).build(), new HostId("host-7"));
    }

    @AfterEach
    void stop() {
        router.stop(0);
    }

    private void accept(HttpExchange exchange) throws IOException {
        paths.add(exchange.getRequestURI().getRawPath());
        bodies.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
        exchange.sendResponseHeaders(202, -1);
        exchange.close();
    }

    @Test
    void acksSeveralTasksOfOneCheckpointInOneRequest() {
        Map<TaskId, CheckpointReporter.SnapshotAck> acks = new LinkedHashMap<>();
        acks.put(TaskId.parse("wc/count#0"), new CheckpointReporter.SnapshotAck(2, 100, 1, 12));
        acks.put(TaskId.parse("wc/sink#1"), new CheckpointReporter.SnapshotAck(0, 50, 0, 9));

        reporter.acknowledgeAll(4, acks);

        assertThat(paths).containsExactly("/api/v1/topologies/wc/checkpoints/4/acks/batch");
        JsonNode body = bodies.get(0);
        assertThat(body.get("host").asString()).isEqualTo("host-7");
        assertThat(body.get("acks")).hasSize(2);
        assertThat(body.get("acks").get(0).get("task").asString()).isEqualTo("wc/count#0");
        assertThat(body.get("acks").get(0).get("sizeBytes").asLong()).isEqualTo(100);
        assertThat(body.get("acks").get(0).get("incarnation").asInt()).isEqualTo(2);
        assertThat(body.get("acks").get(1).get("incarnation").asInt()).isZero();
        assertThat(body.get("acks").get(1).get("task").asString()).isEqualTo("wc/sink#1");
        assertThat(body.get("acks").get(1).get("asyncMillis").asLong()).isEqualTo(9);
    }

    @Test
    void acksASingleTaskAsBefore() {
        reporter.acknowledgeAll(4, Map.of(TaskId.parse("wc/count#0"),
                new CheckpointReporter.SnapshotAck(1, 100, 1, 12)));

        assertThat(paths).containsExactly("/api/v1/topologies/wc/checkpoints/4/acks");
        assertThat(bodies.get(0).get("task").asString()).isEqualTo("wc/count#0");
        assertThat(bodies.get(0).get("incarnation").asInt()).isEqualTo(1);
        assertThat(bodies.get(0).get("host").asString()).isEqualTo("host-7");
    }
}
