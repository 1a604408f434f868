package io.steadfast.host.registration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.host.config.HostProperties;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.TaskMeters;
import io.steadfast.host.health.DataPlaneHealthIndicator;
import io.steadfast.host.health.DataPlaneStallWatch;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.steadfast.protocol.router.RouterHeaders;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.health.contributor.Status;

/**
 * A host whose lease lapsed (the router stops answering, as for a host frozen, cut off or starved past its lease)
 * holds its lease no more, so its data plane sends nothing, until the router answers it again; one whose session the
 * router declared over (410) stops its tasks and rejoins empty with a new session; one whose data-plane IO thread is
 * stuck stops heartbeating (so that the router recovers its tasks elsewhere) until the thread runs again. Real runtime, real registration over
 * HTTP to a stub router on loopback.
 */
@Timeout(60)
class HostFencingTest {

    private static final HostId HERE = new HostId("host-fenced");
    private static final Pattern SESSION = Pattern.compile("\"session\"\\s*:\\s*\"([^\"]+)\"");

    /** How the stub router answers heartbeats. */
    private enum Heartbeats { ANSWER, STALL, GONE }

    private final AtomicReference<Heartbeats> heartbeats = new AtomicReference<>(Heartbeats.ANSWER);
    private final AtomicReference<String> affected = new AtomicReference<>();
    private final List<String> registeredSessions = new CopyOnWriteArrayList<>();
    private final List<String> heartbeatSessions = new CopyOnWriteArrayList<>();
    private HttpServer stubRouter;
    private HostRuntime runtime;
    private ProcessingNode node;
    private RouterRegistration registration;
    private final HostLease lease = new HostLease();
    private final RouterEpoch epoch = new RouterEpoch();
    /** The leadership epoch the stub router names on its answers, or null for none (a router without election). */
    private final AtomicReference<Long> answerEpoch = new AtomicReference<>();
    private DataPlaneStallWatch stallWatch;

    @BeforeEach
    void startStubRouterAndHost() throws IOException {
        stubRouter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stubRouter.createContext("/api/v1/hosts", this::route);
        stubRouter.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        stubRouter.start();
        OperatorRegistry registry = OperatorRegistry.load();
        runtime = new HostRuntime(HERE, registry, DataPlane.start(DataPlaneConfig.defaults()), TaskSettings.defaults(),
                Clock.systemUTC());
        node = new ProcessingNode(runtime, registry, new TaskMeters(new SimpleMeterRegistry(), runtime),
                Clock.systemUTC());
        HostProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(
                "steadfast.host.id", HERE.value(),
                "steadfast.host.router-url", "http://127.0.0.1:" + stubRouter.getAddress().getPort(),
                "steadfast.host.heartbeat-interval", "50ms",
                "steadfast.host.data.io-stall-timeout", "300ms"))).bind("steadfast.host", HostProperties.class).get();
        stallWatch = new DataPlaneStallWatch(node, properties);
        registration = new RouterRegistration(properties, node, new StaticListableBeanFactory()
                .getBeanProvider(RegistrationGate.class), lease, stallWatch,
                new RouterClients(properties.routerUrl(), epoch));
    }

    @AfterEach
    void stop() throws InterruptedException {
        registration.destroy();
        node.close();
        stubRouter.stop(0);
    }

    private void route(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Matcher session = SESSION.matcher(body);
        String named = session.find() ? session.group(1) : null;
        if (exchange.getRequestMethod().equals("POST")) {
            registeredSessions.add(named);
            answer(exchange, 200, "{\"hostId\": \"" + HERE.value() + "\", \"heartbeatInterval\": \"PT0.05S\","
                    + " \"lease\": \"PT0.6S\"}");
            return;
        }
        heartbeatSessions.add(named);
        // the router refuses or stalls only the session it declared over or cannot hear
        switch (named != null && named.equals(affected.get()) ? heartbeats.get() : Heartbeats.ANSWER) {
            case ANSWER -> answer(exchange, 200, "{\"deployments\": []}");
            case GONE -> answer(exchange, 410, "{\"reason\": \"HOST_FENCED\"}");
            case STALL -> {
                try {
                    Thread.sleep(2_000); // frozen, partitioned or overloaded: the answer comes too late
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answer(exchange, 200, "{\"deployments\": []}");
            }
        }
    }

    private void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        Long named = answerEpoch.get();
        if (named != null) {
            exchange.getResponseHeaders().set(RouterHeaders.EPOCH, named.toString());
        }
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private void deployUnboundedJob() {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "held", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 0, "ratePerSecond": 1000}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}"""));
        Map<TaskId, HostId> hosts = new HashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id(), HERE);
        }
        node.deploy(plan, new TaskPlacement(hosts, Map.of(HERE, runtime.dataEndpoint())));
    }

    @Test
    void aHostWhoseHeartbeatsAreNotAnsweredWithinItsLeaseSendsNothingUntilTheRouterAnswersAgain() {
        registration.start(URI.create("http://127.0.0.1:1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeatSessions.size() >= 3);
        deployUnboundedJob();
        String first = registration.session();
        assertThat(lease.holds(lease.now())).isTrue();

        affected.set(first);
        heartbeats.set(Heartbeats.STALL);
        await().atMost(Duration.ofSeconds(5)).until(() -> !lease.holds(lease.now()));

        assertThat(node.deployments()).as("suspended, not stopped: a router that still knows it takes it back")
                .isNotEmpty();

        heartbeats.set(Heartbeats.ANSWER); // the router answers again, this session still LIVE there
        await().atMost(Duration.ofSeconds(10)).until(() -> lease.holds(lease.now()));
        assertThat(registration.session()).as("the same session goes on").isEqualTo(first);
        assertThat(node.deployments()).isNotEmpty();
    }

    @Test
    void answersOfADeposedRouterRenewNoLease() {
        answerEpoch.set(2L);
        registration.start(URI.create("http://127.0.0.1:1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeatSessions.size() >= 3);
        deployUnboundedJob();
        assertThat(lease.holds(lease.now())).isTrue();

        answerEpoch.set(1L); // the leader of epoch 1, frozen while another took over, answers again
        int answered = heartbeatSessions.size();
        await().atMost(Duration.ofSeconds(5)).until(() -> !lease.holds(lease.now()));
        assertThat(heartbeatSessions.size()).as("it answered heartbeats meanwhile").isGreaterThan(answered);
        assertThat(epoch.highest()).isEqualTo(2);

        answerEpoch.set(3L); // a newer leader
        await().atMost(Duration.ofSeconds(10)).until(() -> lease.holds(lease.now()));
        assertThat(node.deployments()).as("suspended, not stopped").isNotEmpty();
    }

    @Test
    void aHostWhoseSessionTheRouterDeclaredOverStopsItsTasksAndRejoinsWithANewSession() {
        registration.start(URI.create("http://127.0.0.1:1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeatSessions.size() >= 2);
        deployUnboundedJob();
        String first = registration.session();

        affected.set(first);
        heartbeats.set(Heartbeats.GONE);
        await().atMost(Duration.ofSeconds(5)).until(() -> node.deployments().isEmpty());

        await().atMost(Duration.ofSeconds(10)).until(() -> registeredSessions.contains(registration.session()));
        assertThat(registration.session()).isNotEqualTo(first);
        await().atMost(Duration.ofSeconds(5)).until(() ->
                heartbeatSessions.get(heartbeatSessions.size() - 1).equals(registration.session()));
    }

    @Test
    void aHostWhoseDataPlaneIoThreadIsStuckStopsHeartbeatingUntilItRunsAgain() {
        registration.start(URI.create("http://127.0.0.1:1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeatSessions.size() >= 3);
        DataPlaneHealthIndicator health = new DataPlaneHealthIndicator(node, stallWatch);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);

        node.injectDataPlaneStall(Duration.ofMillis(2_500));
        await().atMost(Duration.ofSeconds(2)).until(() -> stallWatch.stall().isPresent());
        assertThat(health.health().getStatus()).as("the dataPlane health while its IO thread is stuck")
                .isEqualTo(Status.DOWN);
        int beforeSilence = heartbeatSessions.size();
        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(heartbeatSessions.size()).as("heartbeats sent while the IO thread is stuck (every 50 ms otherwise)")
                .isLessThanOrEqualTo(beforeSilence + 1); // one may have been on its way when the stall was seen

        await().atMost(Duration.ofSeconds(5)).until(() -> stallWatch.stall().isEmpty());
        int afterStall = heartbeatSessions.size();
        await().atMost(Duration.ofSeconds(5)).until(() -> heartbeatSessions.size() >= afterStall + 3);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    }
}
