package io.steadfast.dashboard.router;

import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologySummary;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.RequestEntity;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import io.steadfast.protocol.router.web.LeaderFollowingInterceptor;
import io.steadfast.protocol.router.RouterEndpoints;
import io.steadfast.protocol.router.RouterEpoch;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the router's REST API over HTTP, and forwards the page's calls of it ({@link #forward}). Every failure
 * becomes a {@link RouterRequestException} whose message names the request, what went wrong and what to check.
 * Every call goes to the router that leads ({@link LeaderFollowingInterceptor}). Thread-safe.
 */
public class RouterClient {

    private final RouterEndpoints routers;
    private final RestClient rest;
    private final JsonMapper jsonMapper;

    /** A client of one router. */
    public RouterClient(URI baseUrl, Duration connectTimeout, Duration readTimeout, JsonMapper jsonMapper) {
        this(List.of(baseUrl), connectTimeout, readTimeout, jsonMapper);
    }

    /**
     * @param routerUrls the router's base URL, or those of its replicas: the client follows the one that leads
     * @param connectTimeout how long to wait for a TCP connection
     * @param readTimeout how long to wait for an answer
     * @param jsonMapper reads the router's JSON; this client reads it leniently (see {@link #lenient})
     */
    public RouterClient(List<URI> routerUrls, Duration connectTimeout, Duration readTimeout, JsonMapper jsonMapper) {
        this.routers = new RouterEndpoints(routerUrls);
        this.jsonMapper = lenient(jsonMapper);
        this.rest = RestClient.builder()
                .baseUrl(withoutTrailingSlash(routers.first()))
                .requestInterceptor(new LeaderFollowingInterceptor(routers, new RouterEpoch()))
                .requestFactory(requestFactory(connectTimeout, readTimeout))
                .configureMessageConverters(converters -> converters
                        .withJsonConverter(new JacksonJsonHttpMessageConverter(this.jsonMapper)))
                .build();
    }

    /**
     * The HTTP client underneath this client, also for the dashboard's calls to hosts: HttpURLConnection, so blocking,
     * without client-owned threads, and with both timeouts enforced per request.
     */
    public static ClientHttpRequestFactory requestFactory(Duration connectTimeout, Duration readTimeout) {
        SimpleClientHttpRequestFactory requestFactory = new SimpleClientHttpRequestFactory();
        requestFactory.setConnectTimeout(connectTimeout);
        requestFactory.setReadTimeout(readTimeout);
        return requestFactory;
    }

    /**
     * A router of another version may add members or leave out ones the page does not show (a task's rates, say):
     * unknown members are skipped and absent numbers read as 0, so that the page still shows what it can.
     */
    private static JsonMapper lenient(JsonMapper jsonMapper) {
        return jsonMapper.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
    }

    /** The router this client calls now: the leader, as far as it knows. */
    public URI baseUrl() {
        return routers.current();
    }

    /** {@code GET /api/v1/hosts}. */
    public List<HostView> hosts() {
        return call("GET", "/api/v1/hosts", () -> rest.get().uri("/api/v1/hosts").retrieve()
                .body(new ParameterizedTypeReference<List<HostView>>() { }));
    }

    /** {@code GET /api/v1/topologies}. */
    public List<TopologySummary> topologies() {
        return call("GET", "/api/v1/topologies", () -> rest.get().uri("/api/v1/topologies").retrieve()
                .body(new ParameterizedTypeReference<List<TopologySummary>>() { }));
    }

    /** {@code GET /api/v1/topologies/{id}}; empty if the router answers 404 (cancelled since it was listed). */
    public Optional<TopologyDetail> topology(TopologyId id) {
        try {
            return Optional.of(call("GET", "/api/v1/topologies/" + id, () -> rest.get()
                    .uri("/api/v1/topologies/{id}", id).retrieve().body(TopologyDetail.class)));
        } catch (RouterRequestException e) {
            if (e.reason() == RouterRequestException.Reason.ERROR_STATUS
                    && e.httpStatus() == HttpStatus.NOT_FOUND.value()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Sends {@code request} to the router that leads, as it is, and gives back the router's answer as it came, whatever
     * its status: the status, the {@code Content-Type} (no other header) and the body (none if empty). For the page's
     * pass-through of the router's API, where the router's own problem details (a 400 naming the fields of an invalid
     * topology, a 404) are what the page must show.
     *
     * @param request a relative URL: the path on the router and its query as the page sent it (already encoded), e.g.
     *                {@code /api/v1/recoveries?topology=word-count}; its {@code Content-Type} and body (bytes) if it
     *                has one
     * @throws RouterRequestException of reason {@link RouterRequestException.Reason#UNREACHABLE} if no router
     *                                answered
     * @throws IllegalArgumentException if the URL is absolute or does not start with {@code /}, or the body is not
     *                                  bytes
     */
    public ResponseEntity<byte[]> forward(RequestEntity<?> request) {
        String pathAndQuery = request.getUrl().toString();
        if (request.getUrl().isAbsolute() || !pathAndQuery.startsWith("/")) {
            throw new IllegalArgumentException("Only a path on the router is forwarded, was '" + pathAndQuery + "'");
        }
        HttpMethod method = Objects.requireNonNull(request.getMethod(), "method");
        // An absolute URL on the first router's base, as every call of this client: the interceptor moves it to the
        // leader. Absolute also keeps RestClient from encoding the page's already-encoded query a second time.
        RestClient.RequestBodySpec spec = rest.method(method)
                .uri(URI.create(withoutTrailingSlash(routers.first()) + pathAndQuery));
        MediaType contentType = request.getHeaders().getContentType();
        if (contentType != null) {
            spec.contentType(contentType);
        }
        Object body = request.getBody();
        if (body instanceof byte[] bytes) {
            spec.body(out -> out.write(bytes));
        } else if (body != null) {
            throw new IllegalArgumentException("A body is forwarded as bytes, was a " + body.getClass().getName());
        }
        return call(method.name(), pathAndQuery, () -> spec.exchange((sent, answer) -> asAnswered(answer)));
    }

    private static ResponseEntity<byte[]> asAnswered(ClientHttpResponse answer) throws IOException {
        ResponseEntity.BodyBuilder passed = ResponseEntity.status(answer.getStatusCode());
        MediaType contentType = answer.getHeaders().getContentType();
        if (contentType != null) {
            passed.contentType(contentType);
        }
        byte[] body = answer.getBody().readAllBytes();
        return body.length == 0 ? passed.build() : passed.body(body);
    }

    /**
     * {@code GET /actuator/health}: the {@code status} the router reports about itself. The router answers 503 when
     * it is DOWN, so the body is read whatever the HTTP status.
     */
    public String healthStatus() {
        String path = "/actuator/health";
        return call("GET", path, () -> rest.get().uri(path).exchange((request, response) -> {
            int status = response.getStatusCode().value();
            JsonNode body = readJson(response.getBody());
            JsonNode reported = body == null ? null : body.get("status");
            if (reported == null || !reported.isString()) {
                throw new RouterRequestException(RouterRequestException.Reason.MALFORMED_ANSWER, status,
                        describe("GET", path) + " answered HTTP " + status + " without a health status; is "
                                + baseUrl() + " the router? Check steadfast.dashboard.router-url", null);
            }
            return reported.asString();
        }));
    }

    private @Nullable JsonNode readJson(InputStream body) throws IOException {
        try {
            return jsonMapper.readTree(body);
        } catch (JacksonException e) {
            return null;
        }
    }

    private <T> T call(String method, String path, Supplier<@Nullable T> request) {
        T answer;
        try {
            answer = request.get();
        } catch (RouterRequestException e) {
            throw e;
        } catch (ResourceAccessException e) {
            throw new RouterRequestException(RouterRequestException.Reason.UNREACHABLE, 0, describe(method, path)
                    + " failed: " + rootMessage(e) + ". Is the router running at " + baseUrl()
                    + "? Check steadfast.dashboard.router-url", e);
        } catch (RestClientResponseException e) {
            int status = e.getStatusCode().value();
            throw new RouterRequestException(RouterRequestException.Reason.ERROR_STATUS, status, describe(method, path)
                    + " answered HTTP " + status + ": " + abbreviate(e.getResponseBodyAsString())
                    + ". See the router's log", e);
        } catch (RestClientException e) {
            throw new RouterRequestException(RouterRequestException.Reason.MALFORMED_ANSWER, 0, describe(method, path)
                    + " answered something that is not the router's API (" + rootMessage(e) + "); is " + baseUrl()
                    + " the router, of a version this dashboard reads? Check steadfast.dashboard.router-url", e);
        }
        if (answer == null) {
            throw new RouterRequestException(RouterRequestException.Reason.MALFORMED_ANSWER, 0, describe(method, path)
                    + " answered with an empty body; is " + baseUrl() + " the router? Check"
                    + " steadfast.dashboard.router-url", null);
        }
        return answer;
    }

    private String describe(String method, String path) {
        return method + " " + withoutTrailingSlash(baseUrl()) + path;
    }

    private static String withoutTrailingSlash(URI url) {
        return url.toString().replaceAll("/+$", "");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + message;
    }

    private static String abbreviate(String body) {
        String oneLine = body.replaceAll("\\s+", " ").strip();
        return oneLine.isEmpty() ? "(no body)" : oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine;
    }
}
