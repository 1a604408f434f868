package io.steadfast.router.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.model.ModeChoice;
import io.steadfast.model.ModelReport;
import io.steadfast.model.TaskLoad;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointSettings;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.router.checkpoint.TaskAck;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.InMemoryTopologyRepository;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The router's delay model fed from its own records, on a placement it does not choose: a source, four counts and a
 * sink over three hosts, host L running two counts. Which recovery is predicted faster after losing L turns on the
 * state the lost counts hold: little, and LOCAL (fewer tasks to restart and restore) wins; a GiB each, and GLOBAL
 * (whose live hosts fetch the lost state in parallel, where LOCAL's one standby fetches it in a row) wins. A recovery
 * mode AUTO chooses by this.
 */
class TopologyModelsTest {

    private static final String SPEC = """
            {"id": "t", "operators": [
              {"id": "source", "type": "generator", "config": {"count": 10}},
              {"id": "count", "type": "keyed-count", "parallelism": 4, "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
            ]}""";
    private static final TopologyId T = TopologyId.of("t");
    private static final HostId A = HostId.of("host-a");
    private static final HostId B = HostId.of("host-b");
    private static final HostId L = HostId.of("host-l");
    private static final Map<TaskId, HostId> PLACEMENT = Map.of(TaskId.parse("t/source#0"), A,
            TaskId.parse("t/count#0"), L, TaskId.parse("t/count#1"), L, TaskId.parse("t/count#2"), A,
            TaskId.parse("t/count#3"), B, TaskId.parse("t/sink#0"), B);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, Duration.ofMillis(800));
    private final InMemoryTopologyRepository topologies = new InMemoryTopologyRepository();
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);
    private final CheckpointCoordinators coordinators = new CheckpointCoordinators(topologies, records,
            (host, topology, id) -> { }, new TopologyProgress(detector), clock,
            new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1));
    private final CheckpointFacts facts = new CheckpointFacts(coordinators, records);
    private final TopologyModels models = new TopologyModels(topologies, detector, coordinators, facts,
            new RouterObservation(Duration.ofMillis(300), Duration.ofMillis(200), Duration.ofMillis(100)),
            ModelProperties.defaults(), TaskSettings.defaults(), clock);

    @Test
    void predictsLocalFasterWhenTheLostTasksHoldLittleState() {
        deployAndCheckpointWithLostStateOf(1_000);

        ModeChoice choice = models.report(T).orElseThrow().ifLost(L);

        assertThat(choice.faster()).contains(RecoveryMode.LOCAL);
        assertThat(choice.local().lostTasks()).containsExactlyInAnyOrder(TaskId.parse("t/count#0"),
                TaskId.parse("t/count#1"));
    }

    @Test
    void predictsGlobalFasterWhenTheLostTasksHoldAGibibyteEach() {
        deployAndCheckpointWithLostStateOf(1L << 30);

        ModeChoice choice = models.report(T).orElseThrow().ifLost(L);

        assertThat(choice.faster()).contains(RecoveryMode.GLOBAL);
        assertThat(choice.local().totalSeconds().getAsDouble())
                .as("LOCAL fetches 2 GiB in a row at 100 MiB/s before it can catch up")
                .isGreaterThan(20.48);
    }

    @Test
    void aForecastIsMadeFromTheFactsKnownWithoutReadingTheNewestCheckpoint() {
        deployAndCheckpointWithLostStateOf(1L << 30);
        models.report(T); // reads checkpoint 1: the lost counts hold a GiB each

        DeployedTopology topology = topologies.find(T).orElseThrow();
        assertThat(models.forecast(topology, failureOf(L, Duration.ofMillis(350))).orElseThrow().faster())
                .isEqualTo("GLOBAL");
        assertThat(models.forecast(topology, failureOf(HostId.of("host-z"), Duration.ofMillis(350)))).isEmpty();
    }

    @Test
    void aForecastTakesTheDetectionItSawFromHalfAHeartbeatAfterTheLastOne() {
        deployAndCheckpointWithLostStateOf(1_000);
        DeployedTopology topology = topologies.find(T).orElseThrow();

        // heartbeats every 200 ms: taken to have failed 100 ms after its last one, so 1.4 s of a 1.5 s silence
        RecoveryForecasts frozen = models.forecast(topology, failureOf(L, Duration.ofMillis(1_500))).orElseThrow();
        RecoveryForecasts crashed = models.forecast(topology, failureOf(L, Duration.ofMillis(300))).orElseThrow();

        assertThat(frozen.local().steps().get(0).name()).isEqualTo("detection");
        assertThat(frozen.local().steps().get(0).millis()).isCloseTo(1_400.0, within(1e-6));
        assertThat(frozen.global().steps().get(0).millis()).isCloseTo(1_400.0, within(1e-6));
        assertThat(crashed.local().steps().get(0).millis()).isCloseTo(200.0, within(1e-6));
        assertThat(frozen.local().totalMillis()).as("the longer silence is more input to catch up on, too")
                .isGreaterThan(crashed.local().totalMillis() + 1_200);
    }

    @Test
    void forgetsTheCheckpointOfATopologyOnceItIsCancelled() {
        deployAndCheckpointWithLostStateOf(1_000);
        models.report(T);
        assertThat(facts.topologiesKept()).isEqualTo(1);

        topologies.remove(T);
        coordinators.tick();

        assertThat(facts.topologiesKept()).isZero();
    }

    /** {@code host} declared dead {@code silence} after its last heartbeat, which was now. */
    private DetectedFailure failureOf(HostId host, Duration silence) {
        return new DetectedFailure(host, clock.instant(), clock.instant().plus(silence));
    }

    @Test
    void takesEachEdgesBatchingFromTheWaitItsSendersMeasuredAndFramesFromTheFramesTheyTookIn() {
        deployAndCheckpointWithLostStateOf(1_000);
        clock.advance(Duration.ofMillis(100));
        // every task: 1,000 records/s in 10 frames/s, its sent records waited 4 ms in their frames
        heartbeatAll(new TaskReport.Throughput(5_000, 5_000, 1_000, 1_000, 1.0, 0.3, 10.0, 4.0));

        ModelReport report = models.report(T).orElseThrow();

        assertThat(report.channelCosts().between(TaskId.parse("t/source#0"), TaskId.parse("t/count#2"))
                .meanLingerSeconds()).as("the measured 4 ms, not the model's").isEqualTo(0.004);
        assertThat(report.loads()).filteredOn(load -> load.task().equals(TaskId.parse("t/count#3")))
                .extracting(TaskLoad::recordsPerFrame).containsExactly(100.0);
    }

    /**
     * Deploys the job on A, B and L, heartbeats every task at 1,000 records/s busy 30 % of the time, and completes a
     * checkpoint in which L's tasks hold {@code lostStateBytes} each and the others 1,000 bytes.
     */
    private void deployAndCheckpointWithLostStateOf(long lostStateBytes) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
        for (HostId host : List.of(A, B, L)) {
            hosts.register(host, URI.create("http://" + host.value()), "tcp://" + host.value() + ":1", clock.instant());
        }
        topologies.add(new DeployedTopology(T, JsonMapper.builder().build().readTree(SPEC), plan, PLACEMENT,
                clock.instant()));
        detector.sweep();
        coordinators.tick();
        clock.advance(Duration.ofSeconds(1));
        heartbeatAll();
        coordinators.tick();
        long checkpoint = coordinators.lastTriggeredId(T);
        PLACEMENT.forEach((task, host) -> coordinators.acknowledge(T, checkpoint, new TaskAck(task, host, 0,
                host.equals(L) ? lostStateBytes : 1_000, 1, 2)));
        assertThat(coordinators.lastCompleted(T)).isPresent();
        clock.advance(Duration.ofMillis(100));
        heartbeatAll();
    }

    private void heartbeatAll() {
        heartbeatAll(new TaskReport.Throughput(5_000, 5_000, 1_000, 1_000, 1.0, 0.3));
    }

    private void heartbeatAll(TaskReport.Throughput throughput) {
        for (HostId host : List.of(A, B, L)) {
            List<TaskReport> reports = new ArrayList<>();
            PLACEMENT.forEach((task, placed) -> {
                if (placed.equals(host)) {
                    reports.add(new TaskReport(task.toString(), "t", TaskStatus.RUNNING,
                            throughput, TaskReport.InputHealth.IDLE, null, null));
                }
            });
            hosts.heartbeat(host, reports, clock.instant());
        }
    }
}
