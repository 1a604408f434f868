package io.steadfast.host.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.runtime.host.HeldDeterminants;
import io.steadfast.runtime.plan.TaskId;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A recovering host collects its lost tasks' determinants from the live hosts with one request per peer for all the
 * tasks, keeps the longest run from each task's offset, and asks again from the offset where a peer's earliest run
 * starts later; over real HTTP, against stand-in peers that hold given runs.
 */
class DeterminantCollectorTest {

    private final List<HttpServer> servers = new ArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(server -> server.stop(0));
    }

    /** A peer holding {@code runs}; it answers both the batch and the per-task (with {@code from}) endpoint. */
    private URI peer(Map<TaskId, HeldDeterminants> runs) throws IOException {
        return peer(runs, runs);
    }

    /**
     * A peer whose earliest runs are {@code earliest}, and which answers a request from an offset out of
     * {@code fromOffset} (its log grew at the front meanwhile, as parts of it arrive out of order).
     */
    private URI peer(Map<TaskId, HeldDeterminants> earliest, Map<TaskId, HeldDeterminants> fromOffset)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/deployments/", exchange -> answer(exchange,
                exchange.getRequestURI().getPath().endsWith("/earliest") ? earliest : fromOffset));
        server.start();
        servers.add(server);
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void answer(HttpExchange exchange, Map<TaskId, HeldDeterminants> runs) throws IOException {
        String path = exchange.getRequestURI().getPath();
        Map<String, List<String>> query = query(exchange.getRequestURI().getRawQuery());
        requests.add(path + " " + query.get("task").size());
        if (path.endsWith("/determinants/earliest")) {
            List<EarliestDeterminants.Run> held = query.get("task").stream().map(TaskId::parse)
                    .filter(runs::containsKey)
                    .map(task -> new EarliestDeterminants.Run(task, runs.get(task).from(), runs.get(task).bytes()))
                    .toList();
            reply(exchange, 200, JsonMapper.shared().writeValueAsBytes(new EarliestDeterminants(held)), -1);
            return;
        }
        TaskId task = TaskId.parse(query.get("task").get(0));
        long from = Long.parseLong(query.get("from").get(0));
        HeldDeterminants run = runs.get(task);
        if (run == null || run.end() < from) {
            reply(exchange, 404, new byte[0], -1);
        } else {
            reply(exchange, 200, Arrays.copyOfRange(run.bytes(), (int) (from - run.from()), run.bytes().length), from);
        }
    }

    private static void reply(HttpExchange exchange, int status, byte[] body, long from) throws IOException {
        if (from >= 0) {
            exchange.getResponseHeaders().add(DeterminantCollector.FROM_HEADER, Long.toString(from));
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> query = new HashMap<>();
        for (String pair : raw.split("&")) {
            String[] parts = pair.split("=", 2);
            query.computeIfAbsent(parts[0], key -> new ArrayList<>())
                    .add(URLDecoder.decode(parts[1], StandardCharsets.UTF_8));
        }
        return query;
    }

    private static byte[] bytes(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed + i);
        }
        return bytes;
    }

    @Test
    void asksEachPeerOnceForAllTasksAndKeepsTheLongestRunFromEachOffset() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        TaskId b = TaskId.parse("dc/join#1");
        TaskId c = TaskId.parse("dc/join#2");
        URI shorter = peer(Map.of(a, new HeldDeterminants(0, bytes(10, 0)), b, new HeldDeterminants(5, bytes(20, 5))));
        URI longer = peer(Map.of(a, new HeldDeterminants(0, bytes(30, 0))));

        Map<TaskId, byte[]> collected = new DeterminantCollector(Duration.ofSeconds(2))
                .prefetch(List.of(shorter, longer), List.of(a, b, c)).from(Map.of(a, 4L, b, 8L, c, 0L));

        assertThat(collected.get(a)).isEqualTo(Arrays.copyOfRange(bytes(30, 0), 4, 30));
        assertThat(collected.get(b)).isEqualTo(Arrays.copyOfRange(bytes(20, 5), 3, 20));
        assertThat(collected.get(c)).isEmpty();
        assertThat(requests).containsExactlyInAnyOrder("/api/v1/deployments/dc/determinants/earliest 3",
                "/api/v1/deployments/dc/determinants/earliest 3");
    }

    @Test
    void asksAgainFromTheOffsetWhereAPeersEarliestRunStartsAfterIt() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        // the peer's earliest run starts at 10, after the snapshot's offset 6; asked from 6 it answers a longer run
        URI peer = peer(Map.of(a, new HeldDeterminants(10, bytes(5, 10))),
                Map.of(a, new HeldDeterminants(6, bytes(9, 6))));
        URI laggard = peer(Map.of());

        Map<TaskId, byte[]> collected = new DeterminantCollector(Duration.ofSeconds(2))
                .prefetch(List.of(peer, laggard), List.of(a)).from(Map.of(a, 6L));

        assertThat(collected.get(a)).isEqualTo(bytes(9, 6));
        assertThat(requests).contains("/api/v1/deployments/dc/determinants 1");
    }

    @Test
    void splitsManyTasksIntoRequestsOfAtMostFiftyAndSkipsAPeerThatDoesNotAnswer() throws IOException {
        List<TaskId> tasks = IntStream.range(0, 120).mapToObj(i -> TaskId.parse("dc/count#" + i)).toList();
        Map<TaskId, HeldDeterminants> runs = new HashMap<>();
        tasks.forEach(task -> runs.put(task, new HeldDeterminants(0, bytes(task.subtask() + 1, task.subtask()))));
        URI peer = peer(runs);
        HttpServer gone = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        URI silent = URI.create("http://127.0.0.1:" + gone.getAddress().getPort()); // bound, never answers
        servers.add(gone);
        Map<TaskId, Long> offsets = new HashMap<>();
        tasks.forEach(task -> offsets.put(task, 0L));

        Map<TaskId, byte[]> collected = new DeterminantCollector(Duration.ofMillis(500))
                .prefetch(List.of(peer, silent), tasks).from(offsets);

        tasks.forEach(task -> assertThat(collected.get(task)).isEqualTo(bytes(task.subtask() + 1, task.subtask())));
        assertThat(requests).containsExactlyInAnyOrder("/api/v1/deployments/dc/determinants/earliest 50",
                "/api/v1/deployments/dc/determinants/earliest 50", "/api/v1/deployments/dc/determinants/earliest 20");
    }
}
