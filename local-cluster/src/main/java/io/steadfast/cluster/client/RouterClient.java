package io.steadfast.cluster.client;

import io.steadfast.protocol.host.KeyValue;
import io.steadfast.protocol.problem.Problem;
import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.router.LeaderView;
import io.steadfast.protocol.router.OperatorResults;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.RouterEndpoints;
import io.steadfast.protocol.router.RouterHeaders;
import io.steadfast.protocol.router.TopologyCheckpoints;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologySubmitted;
import io.steadfast.protocol.router.TopologyVotes;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * A blocking client for the router's REST API. Thread-safe. Unknown JSON fields are ignored, so the router
 * may add fields without breaking the launcher.
 */
public final class RouterClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final RouterEndpoints routers;
    private final HttpClient http;
    private final JsonMapper json;

    public RouterClient(URI baseUrl) {
        this(List.of(baseUrl));
    }

    /** A client of replicated routers: it follows the one that leads ({@link RouterEndpoints}). */
    public RouterClient(List<URI> routerUrls) {
        this.routers = new RouterEndpoints(routerUrls);
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
        this.json = JsonMapper.builder()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .addModule(new SimpleModule("steadfast-ids").addDeserializer(HostId.class, new HostIdDeserializer()))
                .build();
    }

    /** The URL of the router this client calls now: the leader, as far as it knows. */
    public URI baseUrl() {
        return routers.current();
    }

    public JsonMapper json() {
        return json;
    }

    /** The router's health status ("UP", "DOWN", ...), or empty if it does not answer yet. */
    public Optional<String> healthStatus() {
        try {
            HttpResponse<String> response = send(get("/actuator/health"));
            JsonNode status = json.readTree(response.body()).path("status");
            return status.isString() ? Optional.of(status.asString()) : Optional.empty();
        } catch (RouterRequestException | JacksonException e) {
            return Optional.empty();
        }
    }

    /** {@code GET /api/v1/leader}: whether the router answering leads, and which does. */
    public LeaderView leader() {
        return read(expect(get("/api/v1/leader"), 200), json.constructType(LeaderView.class));
    }

    /** {@code GET /api/v1/hosts}. */
    public List<HostView> hosts() {
        return read(expect(get("/api/v1/hosts"), 200), json.getTypeFactory().constructCollectionType(List.class, HostView.class));
    }

    /** The hosts {@code GET /api/v1/hosts} lists as LIVE. */
    public Set<HostId> liveHostIds() {
        return hosts().stream().filter(HostView::isLive).map(HostView::hostId).collect(Collectors.toSet());
    }

    /**
     * {@code POST /api/v1/topologies} with a topology spec as JSON.
     *
     * @throws TopologyRejectedException if the router answers with a 4xx problem detail
     */
    public TopologySubmitted deploy(String specJson) {
        HttpRequest request = request("/api/v1/topologies")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(specJson, StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 201 || response.statusCode() == 200) {
            return read(response, json.constructType(TopologySubmitted.class));
        }
        if (response.statusCode() >= 400 && response.statusCode() < 500) {
            throw new TopologyRejectedException(readProblem(response));
        }
        throw unexpected(request, response);
    }

    /** {@code GET /api/v1/topologies/{id}}. */
    public TopologyDetail topology(TopologyId id) {
        return read(expect(get("/api/v1/topologies/" + id), 200), json.constructType(TopologyDetail.class));
    }

    /** {@code DELETE /api/v1/topologies/{id}}; false if the router did not know the topology. */
    public boolean delete(TopologyId id) {
        HttpRequest request = request("/api/v1/topologies/" + id).DELETE().build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 404) {
            return false;
        }
        if (response.statusCode() / 100 != 2) {
            throw unexpected(request, response);
        }
        return true;
    }

    /** {@code GET /api/v1/topologies/{id}/checkpoints}: the checkpoints the store keeps, newest first. */
    public TopologyCheckpoints checkpoints(TopologyId id) {
        return read(expect(get("/api/v1/topologies/" + id + "/checkpoints"), 200),
                json.constructType(TopologyCheckpoints.class));
    }

    /**
     * {@code GET /api/v1/topologies/{id}/checkpoints/{checkpointId}}: the checkpoint with each task's ack; empty if
     * the store does not keep it (any more) or the topology is not deployed.
     */
    public Optional<CheckpointDetail> checkpoint(TopologyId id, long checkpointId) {
        HttpRequest request = get("/api/v1/topologies/" + id + "/checkpoints/" + checkpointId);
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw unexpected(request, response);
        }
        return Optional.of(read(response, json.constructType(CheckpointDetail.class)));
    }

    /** {@code GET /api/v1/topologies/{id}/votes}: what the versions of its N-version operators did. */
    public TopologyVotes votes(TopologyId id) {
        return read(expect(get("/api/v1/topologies/" + id + "/votes"), 200), json.constructType(TopologyVotes.class));
    }

    /** {@code GET /api/v1/recoveries}: every recovery this router ran, newest first. */
    public List<RecoveryView> recoveries() {
        return read(expect(get("/api/v1/recoveries"), 200),
                json.getTypeFactory().constructCollectionType(List.class, RecoveryView.class));
    }

    /** {@code GET /api/v1/recoveries?topology=}: the recoveries of one topology. */
    public List<RecoveryView> recoveries(TopologyId topology) {
        return read(expect(get("/api/v1/recoveries?topology=" + topology), 200),
                json.getTypeFactory().constructCollectionType(List.class, RecoveryView.class));
    }

    /** {@code GET /api/v1/topologies/{id}/results/{operator}}, all keys or at most {@code limit}. */
    public OperatorResults results(TopologyId id, OperatorId operator, OptionalInt limit) {
        String query = limit.isPresent() ? "?limit=" + limit.getAsInt() : "";
        return read(expect(get("/api/v1/topologies/" + id + "/results/" + operator + query), 200),
                json.constructType(OperatorResults.class));
    }

    /** {@code GET /api/v1/topologies/{id}/results/{operator}?key=K}: the key's value, as the router answers it. */
    public KeyValue result(TopologyId id, OperatorId operator, String key) {
        String query = "?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8);
        return read(expect(get("/api/v1/topologies/" + id + "/results/" + operator + query), 200),
                json.constructType(KeyValue.class));
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(routers.current().resolve(path)).timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json, application/problem+json");
    }

    private HttpRequest get(String path) {
        return request(path).GET().build();
    }

    /**
     * Sends {@code request} to the router that leads: once more to the next router when one
     * cannot be reached, and to the leader a standby names in its 503.
     */
    private HttpResponse<String> send(HttpRequest request) {
        URI router = routers.current();
        HttpRequest sent = at(router, request);
        try {
            HttpResponse<String> response;
            try {
                response = http.send(sent, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException unreachable) {
                if (!routers.failed(router)) {
                    throw unreachable;
                }
                router = routers.current();
                sent = at(router, request);
                response = http.send(sent, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            }
            Optional<String> leader = response.headers().firstValue(RouterHeaders.LEADER);
            if (response.statusCode() == 503 && leader.isPresent() && routers.follow(router, URI.create(leader.get()))) {
                sent = at(routers.current(), request);
                response = http.send(sent, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } else if (response.statusCode() == 503 && leader.isEmpty()) {
                routers.failed(router); // a standby that knows no leader yet
            }
            return response;
        } catch (IOException e) {
            throw new RouterRequestException(sent.method() + " " + sent.uri() + " failed: " + e
                    + ". Is the router running? Check its log.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RouterRequestException(sent.method() + " " + sent.uri() + " was interrupted", e);
        }
    }

    /** {@code request} sent to {@code router}: the same path and query. */
    private static HttpRequest at(URI router, HttpRequest request) {
        URI path = request.uri();
        return HttpRequest.newBuilder(request, (name, value) -> true).uri(router.resolve(path.getRawPath()
                + (path.getRawQuery() == null ? "" : "?" + path.getRawQuery()))).build();
    }

    private HttpResponse<String> expect(HttpRequest request, int status) {
        HttpResponse<String> response = send(request);
        if (response.statusCode() != status) {
            throw unexpected(request, response);
        }
        return response;
    }

    private <T> T read(HttpResponse<String> response, tools.jackson.databind.JavaType type) {
        try {
            return json.readValue(response.body(), type);
        } catch (JacksonException e) {
            throw new RouterRequestException(response.request().method() + " " + response.request().uri()
                    + " answered JSON that does not match the expected " + type.getRawClass().getSimpleName()
                    + ": " + e.getOriginalMessage() + "; body: " + abbreviate(response.body()), response.statusCode());
        }
    }

    private Problem readProblem(HttpResponse<String> response) {
        try {
            Problem problem = json.readValue(response.body(), Problem.class);
            return problem.status() == 0
                    ? new Problem(response.statusCode(), problem.title(), problem.detail(), problem.reason(),
                            problem.errors())
                    : problem;
        } catch (JacksonException e) {
            return new Problem(response.statusCode(), null, abbreviate(response.body()), null, List.of());
        }
    }

    private static RouterRequestException unexpected(HttpRequest request, HttpResponse<String> response) {
        return new RouterRequestException(request.method() + " " + response.request().uri() + " answered HTTP "
                + response.statusCode() + ": " + abbreviate(response.body()), response.statusCode());
    }

    private static String abbreviate(String body) {
        return body.length() <= 500 ? body : body.substring(0, 500) + "...";
    }

    /**
     * Host ids are plain JSON strings in most answers; a record serialised without {@code @JsonValue} (as in the
     * router's recoveries) gives {@code {"value": "host-2"}}, which is accepted too.
     */
    private static final class HostIdDeserializer extends ValueDeserializer<HostId> {
        @Override
        public HostId deserialize(JsonParser parser, DeserializationContext context) {
            if (parser.currentToken() == tools.jackson.core.JsonToken.START_OBJECT) {
                JsonNode node = context.readTree(parser);
                return new HostId(node.path("value").asString());
            }
            return new HostId(parser.getValueAsString());
        }
    }
}
