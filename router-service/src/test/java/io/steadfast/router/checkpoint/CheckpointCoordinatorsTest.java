package io.steadfast.router.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.router.checkpoint.CheckpointingStatus.State;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.InMemoryTopologyRepository;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The coordinators of several topologies, ticked by hand every {@link #TICK} on a manual clock (each test ticks once
 * first, to create them at time zero); hosts heartbeat at every tick unless a test silences one.
 */
class CheckpointCoordinatorsTest {

    private static final HostId A = new HostId("host-a");
    private static final HostId B = new HostId("host-b");
    private static final Duration HEARTBEAT_TIMEOUT = Duration.ofMillis(800);
    private static final Duration TICK = Duration.ofMillis(100);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, HEARTBEAT_TIMEOUT);
    private final InMemoryTopologyRepository topologies = new InMemoryTopologyRepository();
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);
    private final List<String> triggers = new CopyOnWriteArrayList<>();
    private final CheckpointCoordinators coordinators = new CheckpointCoordinators(topologies, records,
            (host, topology, id) -> triggers.add(topology + ":" + id), new TopologyProgress(detector), clock,
            new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1));

    private DeployedTopology deploy(String id, String checkpointing) {
        String spec = """
                {"id": "%s", %s "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}""".formatted(id, checkpointing.isEmpty() ? "" : "\"checkpointing\": " + checkpointing + ",");
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(spec));
        DeployedTopology topology = new DeployedTopology(plan.topology(), JsonMapper.builder().build().readTree(spec),
                plan, Map.of(TaskId.parse(id + "/source#0"), A, TaskId.parse(id + "/sink#0"), B), clock.instant());
        topologies.add(topology);
        return topology;
    }

    private void registerHosts() {
        for (HostId host : List.of(A, B)) {
            hosts.register(host, URI.create("http://" + host.value()), "tcp://" + host.value() + ":1", clock.instant());
        }
    }

    private void heartbeat(HostId host) {
        hosts.heartbeat(host, List.of(), clock.instant());
    }

    /** Ticks every {@link #TICK} for {@code duration}; every checkpoint triggered is acknowledged by all its tasks. */
    private void run(Duration duration, List<HostId> beating) {
        for (Duration passed = Duration.ZERO; passed.compareTo(duration) < 0; passed = passed.plus(TICK)) {
            clock.advance(TICK);
            beating.forEach(this::heartbeat);
            coordinators.tick();
            acknowledgeEverythingPending();
        }
    }

    private void acknowledgeEverythingPending() {
        for (DeployedTopology topology : topologies.all()) {
            coordinators.coordinator(topology.id()).ifPresent(coordinator -> triggers.stream()
                    .filter(t -> t.startsWith(topology.id() + ":"))
                    .mapToLong(t -> Long.parseLong(t.substring(t.indexOf(':') + 1)))
                    .forEach(id -> topology.placement().forEach((task, host) -> coordinator.acknowledge(id,
                            new TaskAck(task, host, topology.incarnationOf(task), 1, 0, 0)))));
        }
    }

    private long triggersOf(String topology) {
        return triggers.stream().filter(t -> t.startsWith(topology + ":")).count();
    }

    @Test
    void eachTopologyIsCheckpointedAtItsOwnIntervalAndTheRestAtTheRouterDefault() {
        registerHosts();
        deploy("fast", "{\"intervalMs\": 500}");
        deploy("slow", "{\"intervalMs\": 3000, \"maxConcurrent\": 2}");
        deploy("plain", "");
        coordinators.tick();

        run(Duration.ofSeconds(6), List.of(A, B));

        assertThat(triggersOf("fast")).isEqualTo(12);
        assertThat(triggersOf("slow")).isEqualTo(2);
        assertThat(triggersOf("plain")).isEqualTo(6);
        assertThat(records.list(TopologyId.of("slow"))).extracting(CheckpointSummary::status)
                .containsOnly("COMPLETED").hasSize(2);
        CheckpointingStatus slow = coordinators.status(TopologyId.of("slow")).orElseThrow();
        assertThat(slow.state()).isEqualTo(State.ACTIVE);
        assertThat(slow.settings()).isEqualTo(new CheckpointSettings(Duration.ofSeconds(3), Duration.ofSeconds(10), 2));
        assertThat(coordinators.status(TopologyId.of("plain")).orElseThrow().settings().interval())
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aTopologyWithADeadHostSkipsItsCheckpointsWithTheReasonAndResumesWhenTheHostIsBack() {
        registerHosts();
        deploy("t", "");
        coordinators.tick();
        run(Duration.ofSeconds(1), List.of(A, B));
        assertThat(triggersOf("t")).isEqualTo(1);

        run(Duration.ofSeconds(4), List.of(A)); // B is silent: DEAD after 800 ms, not yet recovered

        assertThat(triggersOf("t")).as("no trigger while a host is DEAD").isEqualTo(1);
        assertThat(records.list(TopologyId.of("t"))).as("nothing recorded as failed either").hasSize(1);
        CheckpointingStatus skipping = coordinators.status(TopologyId.of("t")).orElseThrow();
        assertThat(skipping.state()).isEqualTo(State.SKIPPING);
        assertThat(skipping.reason()).contains("host host-b (tasks 't/sink#0') is DEAD");
        assertThat(skipping.skipped()).as("due at 2, 3, 4 and 5 s").isEqualTo(4);
        assertThat(coordinators.triggerNow(TopologyId.of("t"))).isInstanceOfSatisfying(TriggerResult.Refused.class,
                refused -> assertThat(refused.reason()).contains("is not running").contains("host-b"));

        run(Duration.ofSeconds(1), List.of(A, B));

        assertThat(triggersOf("t")).isEqualTo(2);
        assertThat(coordinators.status(TopologyId.of("t")).orElseThrow().state()).isEqualTo(State.ACTIVE);
    }

    @Test
    void aPausedTopologyIsNotCheckpointedAndSaysWhyUntilResumed() {
        registerHosts();
        deploy("t", "");
        coordinators.tick();
        coordinators.pause(TopologyId.of("t"), "recovery 4 failed (NO_LIVE_HOSTS)");

        run(Duration.ofSeconds(3), List.of(A, B));

        assertThat(triggersOf("t")).isZero();
        CheckpointingStatus paused = coordinators.status(TopologyId.of("t")).orElseThrow();
        assertThat(paused.state()).isEqualTo(State.PAUSED);
        assertThat(paused.reason()).isEqualTo("recovery 4 failed (NO_LIVE_HOSTS)");
        assertThat(coordinators.triggerNow(TopologyId.of("t"))).isInstanceOfSatisfying(TriggerResult.Refused.class,
                refused -> assertThat(refused.reason()).contains("is paused: recovery 4 failed"));

        coordinators.resume(TopologyId.of("t"));
        run(Duration.ofSeconds(1), List.of(A, B));

        assertThat(triggersOf("t")).isEqualTo(1);
    }

    @Test
    void failuresDuringAStoreOutageAreRecordedAtTheFirstTickAfterIt() {
        registerHosts();
        deploy("t", "");
        coordinators.tick();
        records.setAvailable(false);

        run(Duration.ofSeconds(3), List.of(A, B));

        assertThat(triggersOf("t")).as("nothing started without the store").isZero();
        assertThat(coordinators.unrecordedFailures(TopologyId.of("t"))).isEqualTo(3);
        assertThat(coordinators.status(TopologyId.of("t")).orElseThrow().unrecordedFailures()).isEqualTo(3);

        records.setAvailable(true);
        coordinators.tick();

        assertThat(records.list(TopologyId.of("t"))).extracting(s -> s.checkpointId() + ":" + s.status() + ":"
                + s.failureReason()).containsExactly("3:FAILED:STORE_UNAVAILABLE", "2:FAILED:STORE_UNAVAILABLE",
                "1:FAILED:STORE_UNAVAILABLE");
        assertThat(coordinators.unrecordedFailures(TopologyId.of("t"))).isZero();
        run(Duration.ofSeconds(1), List.of(A, B));
        assertThat(records.list(TopologyId.of("t")).get(0).status()).isEqualTo("COMPLETED");
    }

    @Test
    void aHostThatDoesNotAnswerTheTriggerHoldsNeitherTheTickNorARecoveryThatPausesCheckpointing() throws Exception {
        registerHosts();
        heartbeat(A);
        heartbeat(B);
        CountDownLatch hostAnswers = new CountDownLatch(1);
        ExecutorService calls = Executors.newCachedThreadPool();
        CheckpointCoordinators withPool = new CheckpointCoordinators(topologies, records, (host, topology, id) -> {
            try {
                hostAnswers.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("host " + host + " refused");
        }, new TopologyProgress(detector), clock, new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10),
                1), CheckpointCompletions.NONE, calls);
        try {
            DeployedTopology topology = deploy("stuck", "");
            withPool.tick();
            clock.advance(Duration.ofSeconds(1));
            heartbeat(A);
            heartbeat(B);
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                withPool.tick();
                assertThat(withPool.lastTriggeredId(topology.id())).as("triggered; its call hangs").isEqualTo(1);
                withPool.pause(topology.id(), "a recovery is in progress");
            });
            assertThat(withPool.isPaused(topology.id())).isTrue();
            withPool.resume(topology.id());
            clock.advance(Duration.ofSeconds(1));
            heartbeat(A);
            heartbeat(B);
            withPool.tick();
            long triggered = withPool.lastTriggeredId(topology.id());
            assertThat(triggered).isEqualTo(2);

            hostAnswers.countDown();

            await().atMost(Duration.ofSeconds(5)).until(() -> records.list(topology.id())
                    .stream().anyMatch(stats -> stats.checkpointId().value() == triggered && stats.status().equals("FAILED")));
        } finally {
            calls.shutdownNow();
        }
    }
}
