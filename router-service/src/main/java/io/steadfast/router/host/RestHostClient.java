package io.steadfast.router.host;

import io.steadfast.protocol.host.CatchUpTargets;
import io.steadfast.protocol.host.DeploymentRequest;
import io.steadfast.protocol.host.InPlaceRecoveryRequest;
import io.steadfast.protocol.host.InPlaceRecoveryResponse;
import io.steadfast.protocol.host.KeyValue;
import io.steadfast.protocol.host.Placement;
import io.steadfast.protocol.host.RedirectRequest;
import io.steadfast.protocol.host.RedirectResponse;
import io.steadfast.protocol.host.SnapshotPrefetchRequest;
import io.steadfast.protocol.host.StateValues;
import io.steadfast.protocol.host.TaskStateValue;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.CheckpointId;
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
        TaskId task = TaskId.parse("warm-up/source#0");
        HostId warmUpHost = new HostId("warm-up-host");
        Placement placement = new Placement(Map.of(task, warmUpHost), Map.of(warmUpHost, "tcp://127.0.0.1:1"),
                Map.of(task, 1));
        List<TaskId> tasks = List.of(task);
        List<URI> peers = List.of(URI.create("http://127.0.0.1:1"));
        DecisionSpan span = new DecisionSpan(0, 1);
        CheckpointId first = new CheckpointId(1);
        for (int round = 0; round < WARM_UP_ROUNDS; round++) {
            bodies.write(new InPlaceRecoveryRequest(null, 0, placement, tasks,
                    new InPlaceRecoveryRequest.Checkpoints(first, first), peers,
                    new InPlaceRecoveryRequest.Round(tasks, Instant.EPOCH, "warm-up")));
            bodies.write(new SnapshotPrefetchRequest(first, tasks, peers, placement));
            bodies.write(new RedirectRequest(Map.of(task, "tcp://127.0.0.1:1"),
                    Map.of("tcp://127.0.0.1:1", warmUpHost), Map.of(task, 1)));
            bodies.write(new CatchUpTargets(Map.of(ChannelId.parse("warm-up~0"), 1L), "warm-up",
                    Map.of(peers.get(0), Map.of(task, span))));
            bodies.read(InPlaceRecoveryResponse.class, bodies.write(new InPlaceRecoveryResponse(tasks, 1, 1, 1, 1)));
            bodies.read(RedirectResponse.class, bodies.write(new RedirectResponse(1,
                    Map.of(ChannelId.parse("warm-up~0"), 1L), Map.of(task, span))));
        }
        return List.of("recoveries", "snapshot-prefetches", "redirects", "catch-up-targets");
    }

    @Override
    public void deploy(RegisteredHost host, ExecutionPlan plan, TaskPlacement placement, OptionalLong restoreFrom) {
        DeploymentRequest body = new DeploymentRequest(plan, Placement.of(placement), restoreFrom.isPresent()
                ? new DeploymentRequest.Restore(new CheckpointId(restoreFrom.getAsLong())) : null);
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
    public InPlaceRecoveryResponse recoverInPlace(RegisteredHost host, InPlaceRecovery recovery) {
        TopologyId topology = recovery.plan().topology();
        String what = "recover tasks " + recovery.tasks() + " of topology '" + topology + "' in place";
        try {
            return http.post().uri(deploymentUri(host, topology, "/recoveries")).contentType(MediaType.APPLICATION_JSON)
                    .body(recoveryBody(recovery, null)).retrieve().body(InPlaceRecoveryResponse.class);
        } catch (HttpClientErrorException.Conflict e) {
            if (!e.getResponseBodyAsString().contains(PLAN_NOT_HELD)) {
                throw refused(host, what, e);
            }
        } catch (RestClientException e) {
            throw failed(host, what, e);
        }
        return call(host, what, () -> http.post().uri(deploymentUri(host, topology, "/recoveries"))
                .contentType(MediaType.APPLICATION_JSON).body(recoveryBody(recovery, recovery.plan())).retrieve()
                .body(InPlaceRecoveryResponse.class));
    }

    private static InPlaceRecoveryRequest recoveryBody(InPlaceRecovery recovery, @Nullable ExecutionPlan plan) {
        return new InPlaceRecoveryRequest(plan, recovery.plan().epoch(), Placement.of(recovery.placement()),
                recovery.tasks(), new InPlaceRecoveryRequest.Checkpoints(new CheckpointId(recovery.checkpointId()),
                        new CheckpointId(recovery.latestTriggered())), recovery.peers(),
                new InPlaceRecoveryRequest.Round(recovery.recovering(), recovery.requestedAt(), recovery.recovery()));
    }

    @Override
    public void prefetchSnapshots(RegisteredHost host, TopologyId topology, long checkpointId, List<TaskId> tasks,
                                  List<URI> peers, @Nullable TaskPlacement placement) {
        call(host, "fetch ahead the snapshots of " + tasks + " in checkpoint " + checkpointId, () -> http.post()
                .uri(deploymentUri(host, topology, "/snapshot-prefetches")).contentType(MediaType.APPLICATION_JSON)
                .body(new SnapshotPrefetchRequest(new CheckpointId(checkpointId), tasks, peers,
                        placement == null ? null : Placement.of(placement)))
                .retrieve().toBodilessEntity());
    }

    @Override
    public Redirected redirect(RegisteredHost host, TopologyId topology, Map<TaskId, String> newEndpoints,
                               Map<String, HostId> hosts, Map<TaskId, Integer> incarnations) {
        RedirectResponse answer = call(host, "redirect channels of topology '" + topology + "'", () -> http.post()
                .uri(deploymentUri(host, topology, "/redirects")).contentType(MediaType.APPLICATION_JSON)
                .body(new RedirectRequest(new TreeMap<>(newEndpoints), new TreeMap<>(hosts),
                        new TreeMap<>(incarnations))).retrieve().body(RedirectResponse.class));
        if (answer == null) {
            return new Redirected(Map.of(), Map.of());
        }
        return new Redirected(answer.heads() == null ? Map.of() : answer.heads(),
                answer.heldDecisions() == null ? Map.of() : answer.heldDecisions());
    }

    @Override
    public void catchUpTargets(RegisteredHost host, TopologyId topology, CatchUp catchUp) {
        call(host, "set the catch-up targets of topology '" + topology + "'", () -> http.post()
                .uri(deploymentUri(host, topology, "/catch-up-targets")).contentType(MediaType.APPLICATION_JSON)
                .body(new CatchUpTargets(new TreeMap<>(catchUp.heads()), catchUp.recovery(),
                        new TreeMap<>(catchUp.heldDecisions())))
                .retrieve().toBodilessEntity());
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

    @Override
    public Optional<Object> queryTaskState(RegisteredHost host, TaskId task, String state) {
        URI uri = UriComponentsBuilder.fromUri(host.controlUrl()).replacePath("/api/v1/task-state")
                .queryParam("task", task.toString()).queryParam("state", state).build().encode().toUri();
        TaskStateValue value = call(host, "query task state '" + state + "' of " + task, () -> http.get().uri(uri)
                .retrieve().body(TaskStateValue.class));
        return Optional.ofNullable(value).map(TaskStateValue::value);
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
}
