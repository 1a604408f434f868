package io.steadfast.host.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;

/**
 * A host fetches the snapshots of the tasks it restores in one request to the checkpoint-service, and stores those
 * its tasks took at one barrier in one request, both in its batch format; it tells a missing snapshot from an
 * unreachable store, and a closed checkpoint, or a superseded copy of a task, from an unreachable store; over real
 * HTTP, against a stand-in checkpoint-service that holds given snapshots and reads uploads as the documented format
 * says.
 */
class HttpSnapshotStoreTest {

    private final Map<String, byte[]> stored = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private boolean malformed;
    /** What batch uploads brought, by task. */
    private final Map<String, byte[]> uploaded = new LinkedHashMap<>();
    /** The incarnation each task's snapshot in a batch upload came with. */
    private final Map<String, Integer> uploadedIncarnations = new LinkedHashMap<>();
    private int uploadStatus = 201;
    /** The reason a 409 answer to an upload gives. */
    private String refusal = "NOT_PENDING";

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private HttpSnapshotStore store() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/snapshots/", this::serve);
        server.start();
        return new HttpSnapshotStore(RestClient.create(),
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
    }

    private void serve(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (exchange.getRequestMethod().equals("POST")) {
            receiveUpload(exchange);
            return;
        }
        if (exchange.getRequestMethod().equals("PUT")) {
            requests.add("put " + URLDecoder.decode(exchange.getRequestURI().getRawQuery(), StandardCharsets.UTF_8));
            answerUpload(exchange);
            return;
        }
        List<String> tasks = new ArrayList<>();
        for (String pair : exchange.getRequestURI().getRawQuery().split("&")) {
            tasks.add(URLDecoder.decode(pair.substring(pair.indexOf('=') + 1), StandardCharsets.UTF_8));
        }
        requests.add((path.endsWith("/batch") ? "batch " : "one ") + tasks);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (path.endsWith("/batch")) {
            if (!stored.keySet().containsAll(tasks)) {
                reply(exchange, 404, new byte[0]);
                return;
            }
            DataOutputStream out = new DataOutputStream(body);
            for (String task : tasks) {
                byte[] id = task.getBytes(StandardCharsets.UTF_8);
                out.writeInt(id.length);
                out.write(id);
                out.writeLong(stored.get(task).length + (malformed ? 100 : 0));
                out.write(stored.get(task));
            }
            reply(exchange, 200, body.toByteArray());
        } else {
            byte[] one = stored.get(tasks.get(0));
            reply(exchange, one == null ? 404 : 200, one == null ? new byte[0] : one);
        }
    }

    private void receiveUpload(HttpExchange exchange) throws IOException {
        requests.add("upload " + exchange.getRequestURI().getRawPath());
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(exchange.getRequestBody().readAllBytes()));
        assertThat(in.readInt()).as("the header of a batch with incarnations").isEqualTo(0x53465332);
        while (in.available() > 0) {
            byte[] id = new byte[in.readInt()];
            in.readFully(id);
            int incarnation = in.readInt();
            byte[] snapshot = new byte[(int) in.readLong()];
            in.readFully(snapshot);
            uploaded.put(new String(id, StandardCharsets.UTF_8), snapshot);
            uploadedIncarnations.put(new String(id, StandardCharsets.UTF_8), incarnation);
        }
        answerUpload(exchange);
    }

    private void answerUpload(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        reply(exchange, uploadStatus, bytes(uploadStatus == 201 ? "[]" : """
                {"status": 409, "reason": "%s", "tasks": ["sf/count#0"], "detail": "takes incarnation 2"}"""
                .formatted(refusal)));
    }

    private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void fetchesTheSnapshotsOfSeveralTasksInOneRequestInTheOrderAsked() throws IOException {
        HttpSnapshotStore store = store();
        stored.put("sf/count#0", bytes("zero"));
        stored.put("sf/count#1", new byte[0]);
        stored.put("sf/sink#0", bytes("sink"));
        List<TaskId> tasks = List.of(TaskId.parse("sf/sink#0"), TaskId.parse("sf/count#1"), TaskId.parse("sf/count#0"));

        Map<TaskId, byte[]> fetched = store.getAll(tasks, 3);

        assertThat(fetched.keySet()).containsExactlyElementsOf(tasks);
        assertThat(fetched.get(TaskId.parse("sf/sink#0"))).isEqualTo(bytes("sink"));
        assertThat(fetched.get(TaskId.parse("sf/count#1"))).isEmpty();
        assertThat(requests).containsExactly("batch [sf/sink#0, sf/count#1, sf/count#0]");
    }

    @Test
    void asksOneByOneToTellWhichSnapshotIsMissingAndTheRestorerNamesIt() throws IOException {
        HttpSnapshotStore store = store();
        stored.put("sf/source#0", bytes("source"));
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "sf", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 1}},
                  {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]}
                ]}"""));

        assertThat(store.getAll(List.of(TaskId.parse("sf/source#0"), TaskId.parse("sf/count#0")), 3))
                .containsOnlyKeys(TaskId.parse("sf/source#0"));
        assertThat(requests).containsExactly("batch [sf/source#0, sf/count#0]", "one [sf/source#0]",
                "one [sf/count#0]");
        assertThatThrownBy(() -> new SnapshotRestorer(store).fetch(plan, task -> true, 3))
                .isInstanceOf(SnapshotUnavailableException.class)
                .hasMessageContaining("sf/count#0")
                .hasMessageContaining("has no snapshot of it");
    }

    @Test
    void aBatchCutShortIsAStoreFailureNotAMissingSnapshot() throws IOException {
        HttpSnapshotStore store = store();
        stored.put("sf/count#0", bytes("zero"));
        stored.put("sf/count#1", bytes("one"));
        malformed = true;

        assertThatThrownBy(() -> store.getAll(List.of(TaskId.parse("sf/count#0"), TaskId.parse("sf/count#1")), 3))
                .isInstanceOf(SnapshotStoreException.class)
                .hasMessageContaining("malformed batch")
                .hasMessageContaining("declares 104 bytes");
    }

    /** The count task's copy is its incarnation 1, the sink's its first. */
    private static Map<TaskId, TakenSnapshot> twoSnapshots() {
        Map<TaskId, TakenSnapshot> snapshots = new LinkedHashMap<>();
        snapshots.put(TaskId.parse("sf/count#0"), new TakenSnapshot(1, new byte[] {1, 2, 3}));
        snapshots.put(TaskId.parse("sf/sink#1"), new TakenSnapshot(0, new byte[0]));
        return snapshots;
    }

    @Test
    void storesTheSnapshotsOfOneCheckpointInOneBatchRequest() throws IOException {
        HttpSnapshotStore store = store();

        store.putAll(7, twoSnapshots());

        assertThat(requests).containsExactly("upload /api/v1/snapshots/sf/7/batch");
        assertThat(uploaded).containsOnlyKeys("sf/count#0", "sf/sink#1");
        assertThat(uploaded.get("sf/count#0")).containsExactly(1, 2, 3);
        assertThat(uploaded.get("sf/sink#1")).isEmpty();
        assertThat(uploadedIncarnations).containsExactly(Map.entry("sf/count#0", 1), Map.entry("sf/sink#1", 0));
    }

    @Test
    void storesOneSnapshotNamingTheIncarnationThatTookIt() throws IOException {
        HttpSnapshotStore store = store();

        store.put(TaskId.parse("sf/count#0"), 7, new TakenSnapshot(3, new byte[] {1}));

        assertThat(requests).containsExactly("put task=sf/count#0&incarnation=3");
    }

    @Test
    void aSnapshotOfASupersededCopyIsToldFromAClosedCheckpoint() throws IOException {
        HttpSnapshotStore store = store();
        uploadStatus = 409;
        refusal = "SUPERSEDED_INCARNATION";

        assertThatThrownBy(() -> store.putAll(7, twoSnapshots())).isInstanceOf(SupersededSnapshotException.class)
                .hasMessageContaining("A newer copy of [sf/count#0] took over").hasMessageContaining("incarnation 2");
        assertThatThrownBy(() -> store.put(TaskId.parse("sf/count#0"), 7, new TakenSnapshot(1, new byte[] {1})))
                .isInstanceOf(SupersededSnapshotException.class);
    }

    @Test
    void aBatchForACheckpointNoLongerPendingIsToldFromAnUnreachableStore() throws IOException {
        HttpSnapshotStore store = store();
        uploadStatus = 409;

        assertThatThrownBy(() -> store.putAll(7, twoSnapshots())).isInstanceOf(CheckpointClosedException.class)
                .hasMessageContaining("no longer pending");

        server.stop(0);
        assertThatThrownBy(() -> store.putAll(8, twoSnapshots())).isInstanceOf(SnapshotStoreException.class)
                .hasMessageContaining("did not store the snapshots of");
    }

    @Test
    void refusesABatchOfSeveralTopologies() throws IOException {
        HttpSnapshotStore store = store();
        Map<TaskId, TakenSnapshot> mixed = twoSnapshots();
        mixed.put(TaskId.parse("other/count#0"), new TakenSnapshot(0, new byte[] {9}));

        assertThatThrownBy(() -> store.putAll(7, mixed)).isInstanceOf(IllegalArgumentException.class);
        assertThat(requests).isEmpty();
    }
}
