package io.steadfast.dashboard;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real HTTP server on a random loopback port that answers canned JSON per path, standing in for the router.
 * Unknown paths get 404 with a problem body, as the router answers an unknown topology.
 */
public final class FakeRouter implements AutoCloseable {

    private record Answer(int status, String json) {
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();

    private FakeRouter(HttpServer server) {
        this.server = server;
    }

    /** Binds port 0 on 127.0.0.1 and reads the port back. */
    public static FakeRouter start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FakeRouter router = new FakeRouter(server);
            server.createContext("/", exchange -> {
                try (exchange) {
                    Answer answer = router.answers.getOrDefault(exchange.getRequestURI().getRawPath(),
                            new Answer(404, "{\"status\":404,\"detail\":\"no such path\"}"));
                    byte[] body = answer.json().getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type",
                            answer.status() < 300 ? "application/json" : "application/problem+json");
                    exchange.sendResponseHeaders(answer.status(), body.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(body);
                    }
                }
            });
            server.start();
            return router;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers GET {@code path} with {@code status} and {@code json} from now on. */
    public FakeRouter answer(String path, int status, String json) {
        answers.put(path, new Answer(status, json));
        return this;
    }

    public FakeRouter answer(String path, String json) {
        return answer(path, 200, json);
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
