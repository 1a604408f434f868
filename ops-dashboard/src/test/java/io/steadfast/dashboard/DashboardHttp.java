package io.steadfast.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A real HTTP client against the dashboard of a RANDOM_PORT test. */
public final class DashboardHttp {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    public DashboardHttp(int port) {
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    public HttpResponse<String> get(String path) {
        try {
            return client.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpClient client() {
        return client;
    }

    public URI uri(String path) {
        return base.resolve(path);
    }

    public static JsonNode json(String text) {
        return JSON.readTree(text);
    }
}
