package io.steadfast.router.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;

/**
 * The router's calls to the checkpoint-service over real HTTP, against a stand-in service that records what it was
 * sent and answers as the service does: the bodies' JSON, and the records read back.
 */
class HttpCheckpointRecordsTest {

    private static final TopologyId TOPOLOGY = TopologyId.of("w");
    private static final TaskId A = TaskId.parse("w/a#0");
    private static final TaskId B = TaskId.parse("w/b#0");
    private static final HostId HOST = new HostId("host-a");
    private static final String COMPLETED = """
            {"topology":"w","checkpointId":1,"status":"COMPLETED","triggeredAt":"2026-01-01T10:00:00Z",\
            "completedAt":"2026-01-01T10:00:00.300Z","durationMillis":300,"sizeBytes":7,\
            "expectedTasks":["w/a#0","w/b#0"],"expectedIncarnations":{"w/b#0":2},\
            "acks":[{"task":"w/a#0","sizeBytes":3,"ackedAt":"2026-01-01T10:00:00.250Z","syncMillis":1,\
            "asyncMillis":2}],"missingAcks":[],"failure":null}""";
    private static final String FAILED = """
            {"topology":"w","checkpointId":2,"status":"FAILED","triggeredAt":"2026-01-01T10:00:01Z",\
            "completedAt":"2026-01-01T10:00:02Z","durationMillis":1000,"sizeBytes":0,"expectedTasks":["w/a#0"],\
            "expectedIncarnations":{},"acks":[],"missingAcks":["w/a#0"],\
            "failure":{"reason":"TIMEOUT","message":"late"}}""";
    private static final String PENDING = """
            {"topology":"w","checkpointId":3,"status":"PENDING","triggeredAt":"2026-01-01T10:00:03Z",\
            "completedAt":null,"durationMillis":null,"sizeBytes":3,"expectedTasks":["w/a#0","w/b#0"],\
            "expectedIncarnations":{},"acks":[{"task":"w/b#0","sizeBytes":3,"ackedAt":"2026-01-01T10:00:03.100Z",\
            "syncMillis":1,"asyncMillis":2}],"missingAcks":["w/a#0"],"failure":null}""";
    private static final String LIST = """
            {"topology":"w","statistics":{"total":2,"pending":0,"completed":1,"failed":1,"latestCompleted":1,\
            "latestCompletedDurationMillis":300,"latestCompletedSizeBytes":7,"averageDurationMillis":300,\
            "averageSizeBytes":7,"failuresByReason":{"TIMEOUT":1}},"checkpoints":[%s,%s]}""".formatted(FAILED,
            COMPLETED);

    /** What the stand-in was sent: method, path and body. */
    private final List<String> received = new CopyOnWriteArrayList<>();
    /** The stand-in's answer by path: status and body; 200 with the completed record where none is given. */
    private final Map<String, Map.Entry<Integer, String>> answers = new ConcurrentHashMap<>();
    private HttpServer server;
    private HttpCheckpointRecords records;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/checkpoints/", this::respond);
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        records = new HttpCheckpointRecords(RestClient.builder().baseUrl(url.toString()).build(), url);
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void respond(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        received.add(exchange.getRequestMethod() + " " + path + " "
                + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        Map.Entry<Integer, String> answer = answers.getOrDefault(path, Map.entry(200, COMPLETED));
        byte[] bytes = answer.getValue().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", answer.getKey() < 300 ? "application/json"
                : "application/problem+json");
        exchange.sendResponseHeaders(answer.getKey(), bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Test
    void createsACheckpointNamingOnlyTheIncarnationsThatAreNotTheFirst() {
        records.create(TOPOLOGY, 1, List.of(A, B), Map.of(A, 0, B, 2), Instant.parse("2026-01-01T10:00:00Z"));

        assertThat(received).containsExactly("""
                POST /api/v1/checkpoints/w {"checkpointId":1,"tasks":["w/a#0","w/b#0"],"incarnations":{"w/b#0":2},\
                "triggeredAt":"2026-01-01T10:00:00Z"}""");
    }

    @Test
    void sendsAnAckAloneOrWithTheCompletionAndAFailureWithItsReasonAndAcks() {
        TaskAck ackA = new TaskAck(A, HOST, 0, 3, 1, 2);
        TaskAck ackB = new TaskAck(B, HOST, 2, 4, 1, 2);

        records.acknowledge(TOPOLOGY, 1, ackA);
        records.complete(TOPOLOGY, 1, List.of(ackA, ackB));
        records.complete(TOPOLOGY, 1);
        records.fail(TOPOLOGY, 2, CheckpointFailureReason.TIMEOUT, "late");
        records.fail(TOPOLOGY, 3, CheckpointFailureReason.TIMEOUT, "b late", List.of(ackA));

        assertThat(received).containsExactly("""
                PUT /api/v1/checkpoints/w/1/acks {"task":"w/a#0","sizeBytes":3,"syncMillis":1,"asyncMillis":2}""",
                """
                POST /api/v1/checkpoints/w/1/complete {"acks":[{"task":"w/a#0","sizeBytes":3,"syncMillis":1,\
                "asyncMillis":2},{"task":"w/b#0","sizeBytes":4,"syncMillis":1,"asyncMillis":2}]}""",
                "POST /api/v1/checkpoints/w/1/complete ",
                """
                POST /api/v1/checkpoints/w/2/fail {"reason":"TIMEOUT","message":"late"}""",
                """
                POST /api/v1/checkpoints/w/3/fail {"reason":"TIMEOUT","message":"b late","acks":[{"task":"w/a#0",\
                "sizeBytes":3,"syncMillis":1,"asyncMillis":2}]}""");
    }

    @Test
    void readsTheListedRecordsNewestFirstAsSummaries() {
        answers.put("/api/v1/checkpoints/w", Map.entry(200, LIST));

        assertThat(records.list(TOPOLOGY)).containsExactly(
                new CheckpointSummary(CheckpointId.of(2), "FAILED", Instant.parse("2026-01-01T10:00:01Z"),
                        Instant.parse("2026-01-01T10:00:02Z"), 1000L, 0, "TIMEOUT", "late"),
                new CheckpointSummary(CheckpointId.of(1), "COMPLETED", Instant.parse("2026-01-01T10:00:00Z"),
                        Instant.parse("2026-01-01T10:00:00.300Z"), 300L, 7, null, null));
    }

    @Test
    void readsTheLatestCompletedCheckpointsIdAndNoneWhereTheServiceHasNone() {
        assertThat(records.latestCompleted(TOPOLOGY)).hasValue(1);

        answers.put("/api/v1/checkpoints/w/latest-completed", Map.entry(404, """
                {"status":404,"reason":"NOT_FOUND","topology":"w"}"""));

        assertThat(records.latestCompleted(TOPOLOGY)).isEmpty();
    }

    @Test
    void readsOneCheckpointWithEachExpectedTasksAckOrItsAbsence() {
        answers.put("/api/v1/checkpoints/w/3", Map.entry(200, PENDING));

        CheckpointDetail detail = records.find(TOPOLOGY, 3).orElseThrow();

        assertThat(received).containsExactly("GET /api/v1/checkpoints/w/3 ");
        assertThat(detail.summary()).isEqualTo(new CheckpointSummary(CheckpointId.of(3), "PENDING",
                Instant.parse("2026-01-01T10:00:03Z"), null, null, 3, null, null));
        assertThat(detail.tasks()).containsExactly(CheckpointDetail.TaskAckState.missing(A),
                CheckpointDetail.TaskAckState.acked(B, Instant.parse("2026-01-01T10:00:03.100Z"), 3, 1, 2));
        assertThat(detail.missingTasks()).containsExactly(A);
    }

    @Test
    void findsNoCheckpointWhereTheServiceAnswers404AndFailsAsUnavailableOn503() {
        answers.put("/api/v1/checkpoints/w/9", Map.entry(404, """
                {"status":404,"reason":"NOT_FOUND","topology":"w","checkpointId":9}"""));
        answers.put("/api/v1/checkpoints/w/10", Map.entry(503, """
                {"status":503,"reason":"STORE_UNAVAILABLE"}"""));

        assertThat(records.find(TOPOLOGY, 9)).isEmpty();
        CheckpointRecordsException unavailable = catchThrowableOfType(CheckpointRecordsException.class,
                () -> records.find(TOPOLOGY, 10));
        assertThat(unavailable.isUnavailable()).isTrue();
        assertThat(unavailable).hasMessageContaining("could not read checkpoint 10 of 'w'");
    }

    @Test
    void aRefusalIsAFailureOfTheReasonItsStatusSays() {
        answers.put("/api/v1/checkpoints/w", Map.entry(409, """
                {"status":409,"reason":"ALREADY_EXISTS","topology":"w","checkpointId":1}"""));

        CheckpointRecordsException refused = catchThrowableOfType(CheckpointRecordsException.class,
                () -> records.create(TOPOLOGY, 1, List.of(A), Map.of(), Instant.EPOCH));

        assertThat(refused.reason()).isEqualTo(CheckpointRecordsException.Reason.CONFLICT);
        assertThat(refused).hasMessageContaining("could not create checkpoint 1 of 'w'");
    }
}
