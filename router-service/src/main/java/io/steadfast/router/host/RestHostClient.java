package io.steadfast.router.host;

import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@link HostClient} over Spring's {@link RestClient}; timeouts come from the client it is given. Thread-safe. */
public final class RestHostClient implements HostClient {

    /** The reason a host gives, in its 409 problem detail, when a recovery request left out a plan it lacks. */
    static final String PLAN_NOT_HELD = "PLAN_NOT_HELD";

    /** Rounds of {@link #warmUp}: enough for the JIT to compile what writing the bodies runs most. */
    private static final int WARM_UP_ROUNDS = 50;
    private static final JsonMapper PROBLEM_READER = JsonMapper.builder().build();

    private final RestClient http;
    private final JsonBodies bodies;

    RestHostClient(RestClient http, JsonBodies bodies) {
        this.http = http;
        this.bodies = bodies;
    }

    /** A client over {@code http}, whose JSON converter it sets, so that {@link #warmUp} warms the one it uses. */
    public static RestHostClient over(RestClient.Builder http) {
        JacksonJsonHttpMessageConverter json = new JacksonJsonHttpMessageConverter();
        return new RestHostClient(http.configureMessageConverters(converters -> converters.withJsonConverter(json))
                .build(), new JsonBodies(json));
    }

    /**
     * Writes each body a local recovery sends, and reads each answer it takes, in memory, through the converter the
     * calls use; calls no host. A router's first recovery otherwise paid Jackson's introspection of each type on its
     * critical path.
     */
    @Override
    public List<String> warmUp() {
        PlacementBody placement = new PlacementBody(Map.of("warm-up/source#0", "warm-up-host"),
                Map.of("warm-up-host", "tcp://127.0.0.1:1"), Map.of("warm-up/source#0", 1));
        List<String> tasks = List.of("warm-up/source#0");
        List<URI> peers = List.of(URI.create("http://127.0.0.1:1"));
        DecisionSpan span = new DecisionSpan(0, 1);
        for (int round = 0; round < WARM_UP_ROUNDS; round++) {
            bodies.write(new InPlaceRecoveryBody(null, 0, placement, tasks, new CheckpointsBody(1, 1), peers,
                    new RoundBody(tasks, Instant.EPOCH, "warm-up")));
            bodies.write(new PrefetchBody(1, tasks, peers, placement));
            bodies.write(new RedirectBody(Map.of("warm-up/source#0", "tcp://127.0.0.1:1"),
                    Map.of("tcp://127.0.0.1:1", "warm-up-host"), Map.of("warm-up/source#0", 1)));
            bodies.write(new CatchUpBody(Map.of("warm-up/source#0->warm-up/sink#0", 1L), "warm-up",
                    Map.of("http://127.0.0.1:1", Map.of("warm-up/source#0", span))));
            bodies.read(InPlaceRecovery.Answer.class, bodies.write(new InPlaceRecovery.Answer(tasks, 1, 1, 1, 1)));
            bodies.read(RedirectAnswer.class, bodies.write(new RedirectAnswer(1, Map.of("warm-up/source#0", 1L),
                    Map.of("warm-up/source#0", span))));
        }
        return List.of("recoveries", "snapshot-prefetches", "redirects", "catch-up-targets");
    }

    @Override
    public void deploy(RegisteredHost host, ExecutionPlan plan, TaskPlacement placement, OptionalLong restoreFrom) {
        DeploymentBody body = new DeploymentBody(plan, placementBody(placement),
                restoreFrom.isPresent() ? new RestoreBody(restoreFrom.getAsLong()) : null);
        call(host, "deploy topology '" + plan.topology() + "'", () -> http.post()
                .uri(host.controlUrl().resolve("/api/v1/deployments")).contentType(MediaType.APPLICATION_JSON)
                .body(body).retrieve().toBodilessEntity());
    }

    @Override
    public void triggerCheckpoint(RegisteredHost host, TopologyId topology, long checkpointId) {
        call(host, "start checkpoint " + checkpointId + " of topology '" + topology + "'", () -> http.post()
                .uri(host.controlUrl().resolve("/api/v1/deployments/" + topology.value() + "/checkpoints/"
                        + checkpointId)).retrieve().toBodilessEntity());
    }

    /**
     * Sends the request without the plan first (a host that runs tasks of the topology holds it, and a standby
     * fetches the plans of running topologies ahead), and again with it if the host answers that it does not hold
     * the plan at that epoch: reading a large plan would sit on the recovery's critical path.
     */
    @Override
    public InPlaceRecovery.Answer recoverInPlace(RegisteredHost host, InPlaceRecovery recovery) {
        TopologyId topology = recovery.plan().topology();
        String what = "recover tasks " + recovery.tasks() + " of topology '" + topology + "' in place";
        try {
            return http.post().uri(deploymentUri(host, topology, "/recoveries")).contentType(MediaType.APPLICATION_JSON)
                    .body(recoveryBody(recovery, null)).retrieve().body(InPlaceRecovery.Answer.class);
        } catch (HttpClientErrorException.Conflict e) {
            if (!e.getResponseBodyAsString().contains(PLAN_NOT_HELD)) {
                throw refused(host, what, e);
            }
        } catch (RestClientException e) {
            throw failed(host, what, e);
        }
        return call(host, what, () -> http.post().uri(deploymentUri(host, topology, "/recoveries"))
                .contentType(MediaType.APPLICATION_JSON).body(recoveryBody(recovery, recovery.plan())).retrieve()
                .body(InPlaceRecovery.Answer.class));
    }

    private static InPlaceRecoveryBody recoveryBody(InPlaceRecovery recovery, ExecutionPlan plan) {
        return new InPlaceRecoveryBody(plan, recovery.plan().epoch(), placementBody(recovery.placement()),
                recovery.tasks().stream().map(TaskId::toString).toList(),
                new CheckpointsBody(recovery.checkpointId(), recovery.latestTriggered()), recovery.peers(),
                new RoundBody(recovery.recovering().stream().map(TaskId::toString).toList(), recovery.requestedAt(),
                        recovery.recovery()));
    }

    @Override
    public void prefetchSnapshots(RegisteredHost host, TopologyId topology, long checkpointId, List<TaskId> tasks,
                                  List<URI> peers, @Nullable TaskPlacement placement) {
        call(host, "fetch ahead the snapshots of " + tasks + " in checkpoint " + checkpointId, () -> http.post()
                .uri(deploymentUri(host, topology, "/snapshot-prefetches")).contentType(MediaType.APPLICATION_JSON)
                .body(new PrefetchBody(checkpointId, tasks.stream().map(TaskId::toString).toList(), peers,
                        placement == null ? null : placementBody(placement)))
                .retrieve().toBodilessEntity());
    }

    @Override
    public Redirected redirect(RegisteredHost host, TopologyId topology, Map<TaskId, String> newEndpoints,
                               Map<String, HostId> hosts, Map<TaskId, Integer> incarnations) {
        Map<String, String> endpoints = new TreeMap<>();
        newEndpoints.forEach((task, endpoint) -> endpoints.put(task.toString(), endpoint));
        Map<String, String> hostIds = new TreeMap<>();
        hosts.forEach((endpoint, hostId) -> hostIds.put(endpoint, hostId.value()));
        Map<String, Integer> byTask = new TreeMap<>();
        incarnations.forEach((task, incarnation) -> byTask.put(task.toString(), incarnation));
        RedirectAnswer answer = call(host, "redirect channels of topology '" + topology + "'", () -> http.post()
                .uri(deploymentUri(host, topology, "/redirects")).contentType(MediaType.APPLICATION_JSON)
                .body(new RedirectBody(endpoints, hostIds, byTask)).retrieve().body(RedirectAnswer.class));
        Map<TaskId, DecisionSpan> held = new TreeMap<>();
        if (answer != null && answer.heldDecisions() != null) {
            answer.heldDecisions().forEach((task, span) -> held.put(TaskId.parse(task), span));
        }
        return new Redirected(answer == null || answer.heads() == null ? Map.of() : answer.heads(), held);
    }

    @Override
    public void catchUpTargets(RegisteredHost host, TopologyId topology, CatchUp catchUp) {
        Map<String, Map<String, DecisionSpan>> held = new TreeMap<>();
        catchUp.heldDecisions().forEach((peer, spans) -> {
            Map<String, DecisionSpan> byTask = new TreeMap<>();
            spans.forEach((task, span) -> byTask.put(task.toString(), span));
            held.put(peer.toString(), byTask);
        });
        call(host, "set the catch-up targets of topology '" + topology + "'", () -> http.post()
                .uri(deploymentUri(host, topology, "/catch-up-targets")).contentType(MediaType.APPLICATION_JSON)
                .body(new CatchUpBody(catchUp.heads(), catchUp.recovery(), held)).retrieve().toBodilessEntity());
    }

    @Override
    public void checkpointCompleted(RegisteredHost host, TopologyId topology, long checkpointId) {
        call(host, "learn that checkpoint " + checkpointId + " of topology '" + topology + "' completed",
                () -> http.post().uri(deploymentUri(host, topology, "/checkpoints/" + checkpointId + "/completed"))
                        .retrieve().toBodilessEntity());
    }

    private static URI deploymentUri(RegisteredHost host, TopologyId topology, String path) {
        return host.controlUrl().resolve("/api/v1/deployments/" + topology.value() + path);
    }

    private static PlacementBody placementBody(TaskPlacement placement) {
        Map<String, String> hosts = new TreeMap<>();
        placement.hosts().forEach((task, hostId) -> hosts.put(task.toString(), hostId.value()));
        Map<String, String> endpoints = new TreeMap<>();
        placement.endpoints().forEach((hostId, endpoint) -> endpoints.put(hostId.value(), endpoint));
        Map<String, Integer> incarnations = new TreeMap<>();
        placement.incarnations().forEach((task, incarnation) -> incarnations.put(task.toString(), incarnation));
        return new PlacementBody(hosts, endpoints, incarnations);
    }

    @Override
    public void cancel(RegisteredHost host, TopologyId topology) {
        call(host, "cancel topology '" + topology + "'", () -> http.delete()
                .uri(host.controlUrl().resolve("/api/v1/deployments/" + topology.value()))
                .retrieve().toBodilessEntity());
    }

    @Override
    public Optional<Object> queryKey(RegisteredHost host, TaskId task, String state, String key) {
        URI uri = stateUri(host, task, state).queryParam("key", key).build().encode().toUri();
        try {
            KeyValue value = call(host, "query key '" + key + "' of " + task, () -> http.get().uri(uri)
                    .retrieve().body(KeyValue.class));
            return Optional.ofNullable(value).map(KeyValue::value);
        } catch (HostCallException e) {
            if (e.getCause() instanceof HttpClientErrorException.NotFound) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public Map<String, Object> queryAll(RegisteredHost host, TaskId task, String state, int limit) {
        URI uri = stateUri(host, task, state).queryParam("limit", limit).build().encode().toUri();
        StateValues values = call(host, "query state '" + state + "' of " + task, () -> http.get().uri(uri)
                .retrieve().body(new ParameterizedTypeReference<StateValues>() { }));
        return values == null || values.values() == null ? Map.of() : values.values();
    }

    private static UriComponentsBuilder stateUri(RegisteredHost host, TaskId task, String state) {
        return UriComponentsBuilder.fromUri(host.controlUrl()).replacePath("/api/v1/state")
                .queryParam("task", task.toString()).queryParam("state", state);
    }

    private static <T> T call(RegisteredHost host, String what, Supplier<T> request) {
        try {
            return request.get();
        } catch (RestClientResponseException e) {
            throw refused(host, what, e);
        } catch (RestClientException e) {
            throw failed(host, what, e);
        }
    }

    /** The host's problem detail, when its answer is one, is kept whole and its {@code detail} put in the message. */
    private static HostCallException refused(RegisteredHost host, String what, RestClientResponseException e) {
        JsonNode problem = problemOf(e.getResponseBodyAsString());
        String detail = problem != null && problem.path("detail").isString() ? problem.path("detail").asString()
                : e.getResponseBodyAsString();
        return new HostCallException(host.id(), "Host " + host.id() + " at " + host.controlUrl() + " refused to "
                + what + ": HTTP " + e.getStatusCode().value() + " " + detail, e, e.getStatusCode().value(), problem);
    }

    private static @Nullable JsonNode problemOf(String body) {
        try {
            JsonNode node = PROBLEM_READER.readTree(body);
            return node != null && node.isObject() ? node : null;
        } catch (JacksonException e) {
            return null;
        }
    }

    private static HostCallException failed(RegisteredHost host, String what, RestClientException e) {
        if (e instanceof RestClientResponseException response) {
            return refused(host, what, response);
        }
        return new HostCallException(host.id(), "Host " + host.id() + " at " + host.controlUrl() + " could not "
                + what + ": " + e.getMessage() + "; check the host's /actuator/health", e);
    }

    /** Body of a host's {@code POST /api/v1/deployments}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DeploymentBody(ExecutionPlan plan, PlacementBody placement, RestoreBody restore) {
    }

    /**
     * Body of a host's {@code POST /api/v1/deployments/{topology}/recoveries}; its groups are written as members of
     * the body itself, as the host reads them.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record InPlaceRecoveryBody(ExecutionPlan plan, int epoch, PlacementBody placement, List<String> tasks,
                               @JsonUnwrapped CheckpointsBody checkpoints, List<URI> peers,
                               @JsonUnwrapped RoundBody round) {
    }

    /** The checkpoint lost tasks restore from, and the latest triggered. */
    record CheckpointsBody(long checkpointId, long latestTriggered) {
    }

    /** Every task recovered in this round, when the router asked, and its id of the recovery. */
    record RoundBody(List<String> recovering, Instant requestedAt, String recovery) {
    }

    /**
     * Body of a host's {@code POST .../redirects}: the new data endpoint of each moved task, its host, and the
     * incarnation it runs as there (the host refuses the earlier ones from then on).
     */
    record RedirectBody(Map<String, String> endpoints, Map<String, String> hosts, Map<String, Integer> incarnations) {
    }

    /** Body of a host's {@code POST .../snapshot-prefetches}; the placement is left out when null. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PrefetchBody(long checkpointId, List<String> tasks, List<URI> peers, @Nullable PlacementBody placement) {
    }

    /** A host's answer to {@code POST .../redirects}. */
    record RedirectAnswer(int channels, Map<String, Long> heads, Map<String, DecisionSpan> heldDecisions) {
    }

    /** Body of a host's {@code POST .../catch-up-targets}. */
    record CatchUpBody(Map<String, Long> heads, String recovery,
                       Map<String, Map<String, DecisionSpan>> heldDecisions) {
    }

    /** The checkpoint a host restores its tasks from. */
    record RestoreBody(long checkpointId) {
    }

    /**
     * Placement in its JSON form: host of each task, endpoint of each host, and the incarnation of each task recovered
     * at least once (left out while none was).
     */
    record PlacementBody(Map<String, String> hosts, Map<String, String> endpoints,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> incarnations) {
    }

    /** A host's answer to a one-key state query. */
    record KeyValue(String key, Object value) {
    }

    /** A host's answer to a many-keys state query. */
    record StateValues(String task, String state, Map<String, Object> values) {
    }
}
