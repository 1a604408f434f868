package io.steadfast.router.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;

/**
 * What the router learns from a host's answer to a deployment, over real HTTP against a stand-in host: a refusal
 * (4xx) with the host's problem detail, told apart from a failure after which the host may have started part of it.
 */
class RestHostClientDeployTest {

    private static final String OVER_CAPACITY = """
            {"type": "about:blank", "title": "Host at capacity", "status": 409, "reason": "OVER_CAPACITY",
             "detail": "Host dh-host cannot take topology 'dh': 2 tasks would make 9 here, over its limit of 8",
             "topology": "dh", "errors": [{"task": "dh", "field": "tasks", "message": "9 tasks, over 8"}]}""";

    private HttpServer server;

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** A host answering every deployment with {@code status} and {@code body}. */
    private RegisteredHost host(int status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/deployments", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        return RegisteredHost.registered(new HostId("dh-host"), url, "tcp://127.0.0.1:1", Instant.now());
    }

    private static HostCallException deployOn(RegisteredHost host) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "dh", "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}"""));
        Map<TaskId, HostId> hosts = new TreeMap<>();
        plan.tasks().forEach(task -> hosts.put(task.id(), host.id()));
        TaskPlacement placement = new TaskPlacement(hosts, Map.of(host.id(), "tcp://127.0.0.1:1"));
        return catchThrowableOfType(HostCallException.class,
                () -> RestHostClient.over(RestClient.builder()).deploy(host, plan, placement));
    }

    @Test
    void aRefusalCarriesTheHostsStatusAndProblemDetail() throws IOException {
        HostCallException refusal = deployOn(host(409, OVER_CAPACITY));

        assertThat(refusal.refused()).isTrue();
        assertThat(refusal.host()).isEqualTo(new HostId("dh-host"));
        assertThat(refusal.status()).hasValue(409);
        assertThat(refusal.problem()).hasValueSatisfying(problem -> {
            assertThat(problem.get("reason").asString()).isEqualTo("OVER_CAPACITY");
            assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("tasks");
        });
        assertThat(refusal).hasMessageContaining("refused to deploy topology 'dh': HTTP 409 Host dh-host cannot take"
                + " topology 'dh': 2 tasks would make 9 here, over its limit of 8").hasMessageNotContaining("{");
    }

    @Test
    void aServerErrorIsNoRefusal() throws IOException {
        HostCallException failure = deployOn(host(500, "{\"status\": 500, \"detail\": \"out of memory\"}"));

        assertThat(failure.refused()).isFalse();
        assertThat(failure.status()).hasValue(500);
        assertThat(failure).hasMessageContaining("HTTP 500 out of memory");
    }
}
