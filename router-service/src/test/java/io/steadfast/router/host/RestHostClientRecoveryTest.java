package io.steadfast.router.host;

import io.steadfast.protocol.host.InPlaceRecoveryRequest;
import io.steadfast.protocol.host.InPlaceRecoveryResponse;
import io.steadfast.protocol.host.Placement;
import io.steadfast.runtime.plan.CheckpointId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The router asks a host to recover tasks without sending the plan, and again with it only when the host answers
 * that it does not hold the plan; the recovery's id, and what redirected hosts answer they hold of the lost tasks'
 * decisions, travel on to the catch-up; over real HTTP, against a stand-in host that records what it was sent.
 */
class RestHostClientRecoveryTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String CREATED = """
            {"tasks": ["rh/count#0"], "decisionBytes": 0, "snapshotMillis": 1, "decisionMillis": 0,
             "startMillis": 1}""";

    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A host answering each recovery request with {@code answer} (status and body) given what it was sent. */
    private RegisteredHost host(Function<JsonNode, Map.Entry<Integer, String>> answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/deployments/rh/recoveries", exchange -> respond(exchange, answer));
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        return RegisteredHost.registered(new HostId("rh-host"), url, "tcp://127.0.0.1:1", Instant.now());
    }

    private void respond(HttpExchange exchange, Function<JsonNode, Map.Entry<Integer, String>> answer)
            throws IOException {
        JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
        received.add(body);
        Map.Entry<Integer, String> reply = answer.apply(body);
        byte[] bytes = reply.getValue().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", reply.getKey() == 201 ? "application/json"
                : "application/problem+json");
        exchange.sendResponseHeaders(reply.getKey(), bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static InPlaceRecovery recovery() {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "rh", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 10}},
                  {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]}
                ]}""")).withEpoch(4);
        Map<TaskId, HostId> hosts = new TreeMap<>();
        plan.tasks().stream().map(TaskSpec::id).forEach(task -> hosts.put(task, new HostId("rh-host")));
        return new InPlaceRecovery(plan, new TaskPlacement(hosts, Map.of(new HostId("rh-host"), "tcp://127.0.0.1:1")),
                List.of(TaskId.parse("rh/count#0")), new InPlaceRecovery.Checkpoints(3, 3), List.of(),
                List.of(TaskId.parse("rh/count#0")), Instant.now(), "recovery-1");
    }

    private static String conflict(String reason) {
        return "{\"status\": 409, \"title\": \"Plan not held\", \"detail\": \"no plan\", \"reason\": \"" + reason
                + "\"}";
    }

    @Test
    void sendsNoPlanToAHostThatHoldsIt() throws IOException {
        RegisteredHost host = host(body -> Map.entry(201, CREATED));

        InPlaceRecoveryResponse answer = RestHostClient.over(RestClient.builder()).recoverInPlace(host, recovery());

        assertThat(answer.tasks()).containsExactly(TaskId.parse("rh/count#0"));
        assertThat(received).singleElement().satisfies(body -> {
            assertThat(body.has("plan")).isFalse();
            assertThat(body.get("epoch").asInt()).isEqualTo(4);
            assertThat(body.get("tasks").get(0).asString()).isEqualTo("rh/count#0");
        });
    }

    @Test
    void sendsThePlanAgainWhenTheHostAnswersItDoesNotHoldIt() throws IOException {
        RegisteredHost host = host(body -> body.has("plan") ? Map.entry(201, CREATED)
                : Map.entry(409, conflict(RestHostClient.PLAN_NOT_HELD)));

        InPlaceRecoveryResponse answer = RestHostClient.over(RestClient.builder()).recoverInPlace(host, recovery());

        assertThat(answer.tasks()).containsExactly(TaskId.parse("rh/count#0"));
        assertThat(received).hasSize(2);
        assertThat(received.get(0).has("plan")).isFalse();
        assertThat(received.get(1).get("plan").get("topology").asString()).isEqualTo("rh");
        assertThat(received.get(1).get("plan").get("channels").get(0).get("id").asString()).endsWith("@4");
        assertThat(received.get(1).get("epoch").asInt()).isEqualTo(4);
    }

    @Test
    void failsOnAnyOtherConflictWithoutResending() throws IOException {
        RegisteredHost host = host(body -> Map.entry(409, conflict("ALREADY_DEPLOYED")));

        assertThatThrownBy(() -> RestHostClient.over(RestClient.builder()).recoverInPlace(host, recovery()))
                .isInstanceOf(HostCallException.class)
                .hasMessageContaining("refused to recover tasks [rh/count#0]")
                .hasMessageContaining("HTTP 409");
        assertThat(received).hasSize(1);
    }

    @Test
    void carriesTheRecoverysIdAndWhatThePeersHoldOfTheLostTasksDecisions() throws IOException {
        RegisteredHost host = host(body -> Map.entry(201, CREATED));
        server.createContext("/api/v1/deployments/rh/redirects", exchange -> respond(exchange, body -> Map.entry(201,
                "{\"channels\": 1, \"heads\": {\"rh~0@4\": 17},"
                        + " \"heldDecisions\": {\"rh/count#0\": {\"from\": 2, \"end\": 40}}}")));
        server.createContext("/api/v1/deployments/rh/catch-up-targets", exchange -> respond(exchange,
                body -> Map.entry(201, "{}")));
        RestHostClient client = RestHostClient.over(RestClient.builder());
        TaskId count = TaskId.parse("rh/count#0");

        client.recoverInPlace(host, recovery());
        Redirected redirected = client.redirect(host, TopologyId.of("rh"), Map.of(count, "tcp://127.0.0.1:2"),
                Map.of("tcp://127.0.0.1:2", new HostId("rh-standby")), Map.of(count, 3));
        client.catchUpTargets(host, TopologyId.of("rh"), new CatchUp("recovery-1", redirected.heads(),
                Map.of(URI.create("http://peer-a:8080"), redirected.heldDecisions())));

        assertThat(received.get(0).get("recovery").asString()).isEqualTo("recovery-1");
        assertThat(received.get(1).get("hosts").get("tcp://127.0.0.1:2").asString()).as("the host behind the new"
                + " endpoint, to name it when the connection there drops").isEqualTo("rh-standby");
        assertThat(received.get(1).get("incarnations").get("rh/count#0").asInt()).as("the moved task's new"
                + " incarnation, so the host refuses the old one's frames").isEqualTo(3);
        assertThat(redirected.heads()).containsExactly(Map.entry(ChannelId.parse("rh~0@4"), 17L));
        assertThat(redirected.heldDecisions()).containsExactly(Map.entry(count, new DecisionSpan(2, 40)));
        JsonNode catchUp = received.get(2);
        assertThat(catchUp.get("recovery").asString()).isEqualTo("recovery-1");
        assertThat(catchUp.get("heads").get("rh~0@4").asLong()).isEqualTo(17);
        JsonNode span = catchUp.get("heldDecisions").get("http://peer-a:8080").get("rh/count#0");
        assertThat(span.get("from").asLong()).isEqualTo(2);
        assertThat(span.get("end").asLong()).isEqualTo(40);
    }

    @Test
    void sendsThePlacementTheRecoveryWouldHaveWithAPrefetchAndNoneWhenItIsNotKnown() throws IOException {
        RegisteredHost host = host(body -> Map.entry(201, CREATED));
        server.createContext("/api/v1/deployments/rh/snapshot-prefetches", exchange -> respond(exchange,
                body -> Map.entry(202, "{\"started\": 1}")));
        RestHostClient client = RestHostClient.over(RestClient.builder());
        InPlaceRecovery recovery = recovery();

        client.prefetchSnapshots(host, TopologyId.of("rh"), 3, recovery.tasks(), List.of(), recovery.placement());
        client.prefetchSnapshots(host, TopologyId.of("rh"), 3, recovery.tasks(), List.of(), null);

        assertThat(received).hasSize(2);
        JsonNode placement = received.get(0).get("placement");
        assertThat(placement.get("hosts").get("rh/count#0").asString()).isEqualTo("rh-host");
        assertThat(placement.get("endpoints").get("rh-host").asString()).isEqualTo("tcp://127.0.0.1:1");
        assertThat(received.get(1).has("placement")).as("left out, not null").isFalse();
        assertThat(received.get(1).get("checkpointId").asLong()).isEqualTo(3);
    }

    @Test
    void warmsUpTheCallsOfALocalRecoveryInMemoryAndStillCallsHostsAfterwards() throws IOException {
        RegisteredHost host = host(body -> Map.entry(201, CREATED));
        RestHostClient client = RestHostClient.over(RestClient.builder());

        assertThat(client.warmUp()).containsExactly("recoveries", "snapshot-prefetches", "redirects",
                "catch-up-targets");

        assertThat(received).as("the warm-up called no host").isEmpty();
        assertThat(client.recoverInPlace(host, recovery()).tasks()).containsExactly(TaskId.parse("rh/count#0"));
        assertThat(received).hasSize(1);
    }

    @Test
    void warmsUpWithTheBodiesTheCallsSendAndTheAnswersTheyRead() {
        JsonBodies bodies = new JsonBodies(new org.springframework.http.converter.json.JacksonJsonHttpMessageConverter());

        JsonNode written = JSON.readTree(bodies.write(new InPlaceRecoveryRequest(null, 4,
                new Placement(Map.of(TaskId.parse("rh/count#0"), new HostId("rh-host")),
                        Map.of(new HostId("rh-host"), "tcp://h:1"), Map.of()),
                List.of(TaskId.parse("rh/count#0")), new InPlaceRecoveryRequest.Checkpoints(new CheckpointId(3),
                        new CheckpointId(3)), List.of(),
                new InPlaceRecoveryRequest.Round(List.of(), Instant.EPOCH, "recovery-1"))));
        InPlaceRecoveryResponse read = bodies.read(InPlaceRecoveryResponse.class,
                CREATED.getBytes(StandardCharsets.UTF_8));

        assertThat(written.has("plan")).as("left out when null, as in a call").isFalse();
        assertThat(written.get("placement").has("incarnations")).as("left out while no task was recovered").isFalse();
        assertThat(written.get("epoch").asInt()).isEqualTo(4);
        assertThat(written.get("placement").get("hosts").get("rh/count#0").asString()).isEqualTo("rh-host");
        assertThat(read).isEqualTo(new InPlaceRecoveryResponse(List.of(TaskId.parse("rh/count#0")), 0, 1, 0, 1));
    }
}
