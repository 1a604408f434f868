package io.steadfast.cluster.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stand-in for the router's read API, for measuring the dashboard's page at a size this 2-core machine cannot run
 * for real beside a browser: one topology, {@code source} (16 generator tasks) → {@code count} (32) → {@code sink}
 * (16), all by key (64 tasks, 1024 channels), running on 16 LIVE hosts, four tasks each. The JSON has the shape of
 * the real router's answers (recorded from a real 16-host run of the same topology): {@code /api/v1/hosts},
 * {@code /api/v1/topologies}, {@code /api/v1/topologies/{id}}, {@code .../plan}, {@code .../checkpoints},
 * {@code /api/v1/recoveries}, {@code /api/v1/leader} and {@code /actuator/health}. Every answer is made afresh: the
 * counters grow with time and the rates wobble, so each update the page gets changes what it shows, as a running
 * topology's do. Bound to 127.0.0.1 on a port the OS picks; one named thread serves it.
 */
final class StandInRouter implements AutoCloseable {

    static final String TOPOLOGY = "dashboard-scale";
    static final int HOSTS = 16;
    private static final int SOURCES = 16;
    private static final int COUNTS = 32;
    private static final int SINKS = 16;
    private static final double RATE = 3200;

    private final JsonMapper json = JsonMapper.builder().build();
    private final Instant deployedAt = Instant.now();
    private final HttpServer server;
    private final ExecutorService executor;

    private StandInRouter(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Starts the stand-in on a free loopback port. */
    static StandInRouter start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "stand-in-router"));
            StandInRouter router = new StandInRouter(server, executor);
            server.createContext("/", router::answer);
            server.setExecutor(executor);
            server.start();
            return router;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the stand-in router on 127.0.0.1", e);
        }
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String base = "/api/v1/topologies/" + TOPOLOGY;
            JsonNode body = switch (path) {
                case "/actuator/health" -> json.createObjectNode().put("status", "UP");
                case "/api/v1/leader" -> json.createObjectNode().put("role", "LEADER").put("leader", url().toString())
                        .put("epoch", 0);
                case "/api/v1/hosts" -> hosts();
                case "/api/v1/topologies" -> json.createArrayNode().add(summary());
                case "/api/v1/recoveries" -> json.createArrayNode();
                default -> path.equals(base) ? detail() : path.equals(base + "/plan") ? plan()
                        : path.equals(base + "/checkpoints") ? checkpoints() : null;
            };
            if (!"GET".equals(exchange.getRequestMethod()) || body == null) {
                send(exchange, 404, "application/problem+json", json.createObjectNode().put("title", "Not Found")
                        .put("status", 404).put("detail", "The stand-in router answers only the reads the dashboard"
                                + " makes of one topology; not " + exchange.getRequestMethod() + " " + path));
                return;
            }
            send(exchange, 200, "application/json", body);
        }
    }

    private void send(HttpExchange exchange, int status, String type, JsonNode body) throws IOException {
        byte[] bytes = json.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** Every task as {@code [operator, subtask, type]}, in plan order. */
    private static List<Object[]> tasks() {
        List<Object[]> tasks = new ArrayList<>();
        for (int i = 0; i < SOURCES; i++) {
            tasks.add(new Object[] {"source", i, "generator"});
        }
        for (int i = 0; i < COUNTS; i++) {
            tasks.add(new Object[] {"count", i, "keyed-count"});
        }
        for (int i = 0; i < SINKS; i++) {
            tasks.add(new Object[] {"sink", i, "latest-value-sink"});
        }
        return tasks;
    }

    private static String taskId(Object[] task) {
        return TOPOLOGY + "/" + task[0] + "#" + task[1];
    }

    /** Four tasks per host, spread as the router spreads them. */
    private static String hostOf(int taskIndex) {
        return "host-" + (taskIndex % HOSTS + 1);
    }

    private double seconds() {
        return Math.max(1, (System.currentTimeMillis() - deployedAt.toEpochMilli()) / 1000.0);
    }

    /** A task's events/s now: its share of the topology's rate, wobbling by up to 10 %. */
    private double rate(Object[] task, int taskIndex) {
        int parallelism = switch ((String) task[0]) {
            case "source", "sink" -> SOURCES;
            default -> COUNTS;
        };
        double wobble = 1 + 0.1 * Math.sin(seconds() + taskIndex);
        return Math.round(RATE / parallelism * wobble);
    }

    private ArrayNode hosts() {
        ArrayNode hosts = json.createArrayNode();
        List<Object[]> tasks = tasks();
        for (int h = 1; h <= HOSTS; h++) {
            ObjectNode host = hosts.addObject().put("hostId", "host-" + h).put("kind", "PE")
                    .put("controlUrl", "http://127.0.0.1:" + (41000 + h)).put("dataEndpoint", "tcp://127.0.0.1:"
                            + (42000 + h)).put("status", "LIVE").put("lastHeartbeat", Instant.now().toString());
            ArrayNode reports = host.putArray("tasks");
            for (int t = 0; t < tasks.size(); t++) {
                if (!hostOf(t).equals("host-" + h)) {
                    continue;
                }
                Object[] task = tasks.get(t);
                double rate = rate(task, t);
                long records = Math.round(rate * seconds());
                boolean sink = task[0].equals("sink");
                reports.addObject().put("task", taskId(task)).put("type", (String) task[2]).put("status", "RUNNING")
                        .put("recordsIn", records).put("recordsOut", sink ? 0 : records)
                        .put("recordsInPerSecond", rate).put("recordsOutPerSecond", sink ? 0 : rate)
                        .put("queuedFrames", (t + (long) seconds()) % 3).put("malformedFrames", 0)
                        .put("backpressuredMillis", 0).putNull("failure").putNull("catchUp").put("incarnation", 0);
            }
        }
        return hosts;
    }

    private ObjectNode summary() {
        ObjectNode summary = json.createObjectNode().put("id", TOPOLOGY).put("status", "RUNNING");
        summary.putArray("operators").add("source").add("count").add("sink");
        return summary.put("tasks", SOURCES + COUNTS + SINKS).put("deployedAt", deployedAt.toString());
    }

    private ObjectNode detail() {
        ObjectNode detail = json.createObjectNode().put("id", TOPOLOGY).put("status", "RUNNING")
                .put("deployedAt", deployedAt.toString()).put("epoch", 0)
                .put("lastCompletedCheckpoint", (long) seconds() / 5).put("recoveries", 0);
        detail.set("spec", spec());
        ArrayNode states = detail.putArray("tasks");
        List<Object[]> tasks = tasks();
        double[] operatorRates = new double[3];
        for (int t = 0; t < tasks.size(); t++) {
            Object[] task = tasks.get(t);
            double rate = rate(task, t);
            long records = Math.round(rate * seconds());
            boolean sink = task[0].equals("sink");
            states.addObject().put("task", taskId(task)).put("host", hostOf(t)).put("hostStatus", "LIVE")
                    .put("status", "RUNNING").put("recordsIn", records).put("recordsOut", sink ? 0 : records)
                    .put("recordsInPerSecond", rate).put("recordsOutPerSecond", sink ? 0 : rate)
                    .put("queuedFrames", (t + (long) seconds()) % 3).put("latencyMillis", 0.1 + rate / 1e4)
                    .put("busyFraction", rate / 2e4).put("outputWaitMillis", sink ? null : 1 + rate / 1e4)
                    .putNull("failure");
            operatorRates[t < SOURCES ? 0 : t < SOURCES + COUNTS ? 1 : 2] += rate;
        }
        ArrayNode operators = detail.putArray("operators");
        String[] names = {"source", "count", "sink"};
        for (int o = 0; o < names.length; o++) {
            long records = Math.round(RATE * seconds());
            operators.addObject().put("operator", names[o]).put("recordsIn", records)
                    .put("recordsOut", o == 2 ? 0 : records).put("eventsPerSecond", operatorRates[o])
                    .put("latencyMillis", 0.2 + o * 0.05).put("outputWaitMillis", o == 2 ? null : 1.5);
        }
        detail.putArray("warnings");
        return detail;
    }

    private JsonNode spec() {
        return json.readTree("""
                {"id": "%s",
                 "checkpointing": {"intervalMs": 5000, "timeoutMs": 20000},
                 "operators": [
                   {"id": "source", "type": "generator", "parallelism": %d,
                    "config": {"count": 0, "keys": 1000, "ratePerSecond": %d}},
                   {"id": "count", "type": "keyed-count", "parallelism": %d,
                    "inputs": [{"from": "source", "partitioning": "key"}]},
                   {"id": "sink", "type": "latest-value-sink", "parallelism": %d,
                    "inputs": [{"from": "count", "partitioning": "key"}]}
                 ]}
                """.formatted(TOPOLOGY, SOURCES, (long) RATE, COUNTS, SINKS));
    }

    /** The execution plan as the router answers it: tasks with their input and output channels, and the channels. */
    private ObjectNode plan() {
        ObjectNode plan = json.createObjectNode().put("topology", TOPOLOGY);
        ArrayNode planTasks = plan.putArray("tasks");
        ArrayNode channels = json.createArrayNode();
        JsonNode spec = spec();
        List<Object[]> tasks = tasks();
        int[] parallelism = {SOURCES, COUNTS, SINKS};
        String[] operators = {"source", "count", "sink"};
        int first = 0;
        int channel = 0;
        List<ObjectNode> created = new ArrayList<>();
        for (int o = 0; o < operators.length; o++) {
            JsonNode config = spec.get("operators").get(o).path("config");
            for (int i = 0; i < parallelism[o]; i++) {
                Object[] task = tasks.get(first + i);
                ObjectNode planTask = planTasks.addObject().put("id", taskId(task)).put("type", (String) task[2])
                        .put("parallelism", parallelism[o]);
                planTask.set("config", config.isMissingNode() ? json.createObjectNode() : config);
                planTask.putArray("inputs");
                planTask.putArray("outputs");
                created.add(planTask);
            }
            first += parallelism[o];
        }
        first = 0;
        for (int o = 0; o + 1 < operators.length; o++) {
            int next = first + parallelism[o];
            for (int i = 0; i < parallelism[o]; i++) {
                ObjectNode from = created.get(first + i);
                ArrayNode ids = ((ArrayNode) from.get("outputs")).addObject().put("to", operators[o + 1])
                        .put("partitioning", "key").putArray("channels");
                for (int j = 0; j < parallelism[o + 1]; j++) {
                    ObjectNode to = created.get(next + j);
                    String id = TOPOLOGY + "~" + channel++;
                    ids.add(id);
                    ((ArrayNode) to.get("inputs")).addObject().put("channel", id).put("from", from.get("id").asString())
                            .put("inputIndex", 0);
                    channels.addObject().put("id", id).put("from", from.get("id").asString())
                            .put("to", to.get("id").asString()).put("partitioning", "key");
                }
            }
            first = next;
        }
        plan.set("channels", channels);
        return plan.put("recoveryMode", "LOCAL");
    }

    private ObjectNode checkpoints() {
        ObjectNode checkpoints = json.createObjectNode().put("topology", TOPOLOGY).putNull("latestCompleted");
        checkpoints.putNull("checkpointing");
        checkpoints.putArray("checkpoints");
        return checkpoints;
    }
}
