package io.steadfast.host.recovery;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.HeldDecisions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Live hosts standing in as peers of a recovering host, over real HTTP: each holds runs of tasks' decisions and
 * answers a host's {@code GET .../decisions/earliest} and {@code GET .../decisions?from=}. Records the requests
 * as {@code path task-count}. A test changes what a peer holds with {@link #hold}.
 */
public final class StandInPeers implements AutoCloseable {

    private final List<HttpServer> servers = new ArrayList<>();
    /** The requests answered, as {@code path number-of-tasks}. */
    public final List<String> requests = new CopyOnWriteArrayList<>();
    /** The {@code incarnation} parameters of each request answered, in order (empty for a request without). */
    public final List<List<String>> incarnations = new CopyOnWriteArrayList<>();
    private final Map<URI, Map<TaskId, HeldDecisions>> earliest = new ConcurrentHashMap<>();
    private final Map<URI, Map<TaskId, HeldDecisions>> fromOffset = new ConcurrentHashMap<>();

    /** A peer holding {@code runs}, for both endpoints. */
    public URI peer(Map<TaskId, HeldDecisions> runs) throws IOException {
        return peer(runs, runs);
    }

    /**
     * A peer whose earliest runs are {@code earliest}, and which answers a request from an offset out of
     * {@code fromOffset} (its log grew at the front meanwhile, as parts of it arrive out of order).
     */
    public URI peer(Map<TaskId, HeldDecisions> earliestRuns, Map<TaskId, HeldDecisions> runsFromOffset)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        hold(url, earliestRuns, runsFromOffset);
        server.createContext("/api/v1/deployments/", exchange -> answer(exchange,
                exchange.getRequestURI().getPath().endsWith("/earliest") ? earliest.get(url) : fromOffset.get(url)));
        server.start();
        servers.add(server);
        return url;
    }

    /** A bound address that never answers. */
    public URI silent() throws IOException {
        HttpServer gone = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        servers.add(gone);
        return URI.create("http://127.0.0.1:" + gone.getAddress().getPort());
    }

    /** What a peer holds from now on. */
    public void hold(URI peer, Map<TaskId, HeldDecisions> earliestRuns, Map<TaskId, HeldDecisions> runsFromOffset) {
        earliest.put(peer, Map.copyOf(earliestRuns));
        fromOffset.put(peer, Map.copyOf(runsFromOffset));
    }

    /** {@code length} bytes counting up from {@code seed}. */
    public static byte[] bytes(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed + i);
        }
        return bytes;
    }

    private void answer(HttpExchange exchange, Map<TaskId, HeldDecisions> runs) throws IOException {
        String path = exchange.getRequestURI().getPath();
        Map<String, List<String>> query = query(exchange.getRequestURI().getRawQuery());
        requests.add(path + " " + query.get("task").size());
        incarnations.add(query.getOrDefault("incarnation", List.of()));
        if (path.endsWith("/decisions/earliest")) {
            List<EarliestDecisions.Run> held = query.get("task").stream().map(TaskId::parse)
                    .filter(runs::containsKey)
                    .map(task -> new EarliestDecisions.Run(task, runs.get(task).from(), runs.get(task).bytes()))
                    .toList();
            reply(exchange, 200, JsonMapper.shared().writeValueAsBytes(new EarliestDecisions(held)), -1);
            return;
        }
        TaskId task = TaskId.parse(query.get("task").get(0));
        long from = Long.parseLong(query.get("from").get(0));
        HeldDecisions run = runs.get(task);
        if (run == null || run.end() < from) {
            reply(exchange, 404, new byte[0], -1);
        } else {
            reply(exchange, 200, Arrays.copyOfRange(run.bytes(), (int) (from - run.from()), run.bytes().length), from);
        }
    }

    private static void reply(HttpExchange exchange, int status, byte[] body, long from) throws IOException {
        if (from >= 0) {
            exchange.getResponseHeaders().add(DecisionCollector.FROM_HEADER, Long.toString(from));
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

    @Override
    public void close() {
        servers.forEach(server -> server.stop(0));
    }
}
