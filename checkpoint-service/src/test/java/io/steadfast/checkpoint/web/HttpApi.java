package io.steadfast.checkpoint.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A real HTTP client for the service's API, as a host or the router would call it. */
final class HttpApi {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    HttpApi(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    static String encode(String taskId) {
        return URLEncoder.encode(taskId, StandardCharsets.UTF_8);
    }

    record Reply(int status, String contentType, byte[] body) {

        JsonNode json() {
            return JSON.readTree(body);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    Reply send(String method, String path, HttpRequest.BodyPublisher body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .method(method, body);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Reply get(String path) {
        return send("GET", path, HttpRequest.BodyPublishers.noBody(), null);
    }

    Reply delete(String path) {
        return send("DELETE", path, HttpRequest.BodyPublishers.noBody(), null);
    }

    Reply putBytes(String path, byte[] bytes) {
        return send("PUT", path, HttpRequest.BodyPublishers.ofByteArray(bytes), "application/octet-stream");
    }

    Reply postBytes(String path, byte[] bytes) {
        return send("POST", path, HttpRequest.BodyPublishers.ofByteArray(bytes), "application/octet-stream");
    }

    Reply postJson(String path, String json) {
        return send("POST", path, HttpRequest.BodyPublishers.ofString(json), "application/json");
    }

    Reply putJson(String path, String json) {
        return send("PUT", path, HttpRequest.BodyPublishers.ofString(json), "application/json");
    }
}
