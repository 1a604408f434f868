package io.steadfast.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP server on a random loopback port that answers canned JSON per path, standing in for the router (or for
 * a host's control API). Unknown paths get 404 with a problem body, as the router answers an unknown topology. Every
 * request is recorded ({@link #requests()}).
 */
public final class FakeRouter implements AutoCloseable {

    /**
     * A canned answer.
     *
     * @param contentType the Content-Type sent, or null for none (and then no body)
     * @param headers     more headers to send
     */
    public record Answer(int status, @Nullable String contentType, String body, Map<String, String> headers) {

        public static Answer json(int status, String json) {
            return new Answer(status, status < 300 ? "application/json" : "application/problem+json", json, Map.of());
        }

        public static Answer empty(int status) {
            return new Answer(status, null, "", Map.of());
        }
    }

    /** A request as it arrived: the raw path and query, the Content-Type and the body. */
    public record Request(String method, String path, @Nullable String query, @Nullable String contentType,
                          String body) {
    }

    private static final Answer NOT_FOUND = Answer.json(404, "{\"status\":404,\"detail\":\"no such path\"}");

    private volatile Answer otherwise = NOT_FOUND;

    private final HttpServer server;
    /** By "METHOD path" (one method) or by path (any method). */
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private FakeRouter(HttpServer server) {
        this.server = server;
    }

    /** Binds port 0 on 127.0.0.1 and reads the port back. */
    public static FakeRouter start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FakeRouter router = new FakeRouter(server);
            server.createContext("/", router::handle);
            server.start();
            return router;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getRawPath();
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            requests.add(new Request(method, path, exchange.getRequestURI().getRawQuery(),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body));
            Answer answer = answers.getOrDefault(method + " " + path, answers.getOrDefault(path, otherwise));
            answer.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            if (answer.contentType() == null) {
                exchange.sendResponseHeaders(answer.status(), -1);
                return;
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            exchange.sendResponseHeaders(answer.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Answers {@code path}, whatever the method, with {@code status} and {@code json} from now on. */
    public FakeRouter answer(String path, int status, String json) {
        answers.put(path, Answer.json(status, json));
        return this;
    }

    public FakeRouter answer(String path, String json) {
        return answer(path, 200, json);
    }

    /** Answers {@code method path} with {@code answer} from now on, before any answer of the path alone. */
    public FakeRouter answer(String method, String path, Answer answer) {
        answers.put(method + " " + path, answer);
        return this;
    }

    /** Answers every request that no other answer matches with {@code answer}, instead of a 404. */
    public FakeRouter otherwise(Answer answer) {
        otherwise = answer;
        return this;
    }

    /** Every request so far, oldest first. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The requests so far of {@code method path}. */
    public List<Request> requests(String method, String path) {
        return requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).toList();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
