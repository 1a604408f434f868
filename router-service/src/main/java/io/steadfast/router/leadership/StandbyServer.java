package io.steadfast.router.leadership;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.protocol.router.RouterHeaders;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a standby router serves on the router's port until it leads: its health probes (UP: a standby is alive and
 * ready to take over; the Kubernetes Service routes to the leader by its pod label, not by readiness, so that rolling
 * updates of the router Deployment go on), {@code GET /api/v1/leader}, and for every other request a 503 problem
 * detail naming the leader ({@value Leadership#LEADER_HEADER} header and {@code leader} property), which hosts, the
 * launcher and the dashboard follow. Plain JDK HTTP server: the router's Spring context starts only when this router
 * leads, and this server stops just before.
 */
public final class StandbyServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StandbyServer.class);

    private final HttpServer server;
    private final ExecutorService threads;
    private final Leadership election;

    private StandbyServer(HttpServer server, ExecutorService threads, Leadership election) {
        this.server = server;
        this.threads = threads;
        this.election = election;
    }

    /** Serves on {@code address} until {@link #close}. */
    public static StandbyServer start(InetSocketAddress address, Leadership election) throws IOException {
        HttpServer server = HttpServer.create(address, 64);
        ExecutorService threads = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "steadfast-router-standby-http");
            thread.setDaemon(true);
            return thread;
        });
        StandbyServer standby = new StandbyServer(server, threads, election);
        server.createContext("/", standby::handle);
        server.setExecutor(threads);
        server.start();
        LOG.info("Router stands by on {}: health UP, API 503 naming the leader", server.getAddress());
        return standby;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String leader = election.leaderUrl().map(URI::toString).orElse(null);
            if (path.equals("/actuator/health/liveness") || path.equals("/actuator/health/readiness")) {
                send(exchange, 200, "application/json", "{\"status\":\"UP\"}");
            } else if (path.equals("/actuator/health")) {
                send(exchange, 200, "application/json", "{\"status\":\"UP\",\"components\":{\"leadership\":"
                        + "{\"status\":\"UP\",\"details\":" + leaderJson(leader) + "}}}");
            } else if (path.equals("/api/v1/leader")) {
                send(exchange, 200, "application/json", leaderJson(leader));
            } else {
                if (leader != null) {
                    exchange.getResponseHeaders().set(Leadership.LEADER_HEADER, leader);
                }
                exchange.getResponseHeaders().set("Retry-After", "1");
                send(exchange, 503, "application/problem+json", "{\"type\":\"about:blank\",\"title\":\"Not the leader\","
                        + "\"status\":503,\"detail\":" + quoted("This router stands by" + (leader == null
                        ? " and knows no leader yet; try again shortly"
                        : "; send the request to the leader at " + leader)) + ",\"reason\":\"" + RouterHeaders.NOT_LEADER + "\""
                        + (leader == null ? "" : ",\"leader\":" + quoted(leader)) + "}");
            }
        }
    }

    private String leaderJson(String leader) {
        return "{\"role\":\"STANDBY\",\"leader\":" + (leader == null ? "null" : quoted(leader)) + ",\"epoch\":"
                + election.epoch() + "}";
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops serving at once: the router's own web server takes the port next. */
    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
