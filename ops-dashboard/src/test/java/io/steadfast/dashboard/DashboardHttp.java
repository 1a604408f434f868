package io.steadfast.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
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
        return send(request(path));
    }

    /** POSTs {@code body} as {@code contentType}. */
    public HttpResponse<String> post(String path, String contentType, String body) {
        return send(request(path).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    public HttpResponse<String> post(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    public HttpResponse<String> delete(String path) {
        return send(request(path).DELETE());
    }

    /** A request of {@code path} on the dashboard, with a timeout. */
    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(20));
    }

    public HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
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

    /**
     * The problem detail {@code response} carries, once asserted to be one of {@code status} and {@code reason} in
     * the shape every service shares: {@code application/problem+json}, a title, and the type derived from the reason.
     */
    public static JsonNode problem(HttpResponse<String> response, int status, String reason) {
        String call = response.request().method() + " " + response.request().uri();
        assertThat(response.statusCode()).as(call).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).as(call).hasValue("application/problem+json");
        JsonNode problem = json(response.body());
        assertThat(problem.get("status").asInt()).as(call).isEqualTo(status);
        assertThat(problem.get("reason").asString()).as(call).isEqualTo(reason);
        assertThat(problem.get("type").asString()).as(call)
                .isEqualTo("urn:steadfast:problem:" + reason.toLowerCase(Locale.ROOT).replace('_', '-'));
        assertThat(problem.get("title").asString()).as(call).isNotBlank();
        return problem;
    }
}
