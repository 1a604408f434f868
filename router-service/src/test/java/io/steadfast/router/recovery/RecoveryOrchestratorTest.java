package io.steadfast.router.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.steadfast.protocol.router.RecoveryForecast;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.FakeHostClient;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointSettings;
import io.steadfast.router.checkpoint.CheckpointingStatus;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.router.checkpoint.TaskAck;
import io.steadfast.router.checkpoint.TriggerResult;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.placement.EvenTaskPlacer;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.InMemoryTopologyRepository;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class RecoveryOrchestratorTest {

    static final String SPEC = """
            {"id": "t", "operators": [
              {"id": "source", "type": "generator", "config": {"count": 10}},
              {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
            ]}""";
    static final TopologyId T = TopologyId.of("t");
    static final HostId A = new HostId("host-a");
    static final HostId B = new HostId("host-b");
    static final HostId C = new HostId("host-c");
    static final TaskId SINK = TaskId.parse("t/sink#0");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, Duration.ofMillis(800));
    private final InMemoryTopologyRepository topologies = new InMemoryTopologyRepository();
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);
    private final FakeHostClient hostClient = new FakeHostClient();
    private final TopologyProgress progress = new TopologyProgress(detector);
    private final List<String> triggers = new CopyOnWriteArrayList<>();
    private final CheckpointCoordinators coordinators = new CheckpointCoordinators(topologies, records,
            (host, topology, id) -> triggers.add(topology + "@" + host + ":" + id), progress, clock,
            new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1));
    private final RecoveryLog log = new RecoveryLog();
    private final RecoveryOrchestrator orchestrator = builderWithFakes().build();

    private void deployOnThreeHosts() {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
        for (HostId host : List.of(A, B, C)) {
            hosts.register(host, URI.create("http://" + host.value()), "tcp://" + host.value() + ":1", clock.instant());
        }
        topologies.add(new DeployedTopology(T, JsonMapper.builder().build().readTree(SPEC), plan,
                Map.of(TaskId.parse("t/source#0"), A, TaskId.parse("t/count#0"), B, TaskId.parse("t/count#1"), C,
                        SINK, A), clock.instant()));
        detector.sweep();
        coordinators.tick();
    }

    private void completeCheckpoint(long id) {
        List<TaskId> tasks = topologies.find(T).orElseThrow().plan().tasks().stream().map(t -> t.id()).toList();
        records.create(T, id, tasks, Map.of(), clock.instant());
        tasks.forEach(task -> records.acknowledge(T, id, new TaskAck(task, A, 0, 1, 0, 0)));
        records.complete(T, id);
    }

    /** A heartbeat; the host that runs the sink (as now placed) reports it with {@code sinkRecordsIn}. */
    private void heartbeat(HostId host, long sinkRecordsIn) {
        boolean sinkHere = host.equals(topologies.find(T).orElseThrow().placement().get(SINK));
        List<TaskReport> reports = sinkHere ? List.of(new TaskReport(SINK.toString(), "latest-value-sink",
                TaskStatus.RUNNING, TaskReport.Throughput.takenIn(sinkRecordsIn),
                    TaskReport.InputHealth.IDLE, null, null)) : List.of();
        hosts.heartbeat(host, reports, clock.instant());
    }

    /** Host C goes silent: the detector declares it DEAD one timeout after its last heartbeat. */
    private DetectedFailure killC() {
        heartbeat(A, 500);
        heartbeat(B, 500);
        clock.advance(Duration.ofMillis(500));
        heartbeat(A, 500);
        heartbeat(B, 500);
        clock.advance(Duration.ofMillis(400));
        detector.sweep();
        assertThat(detector.failures()).hasSize(1);
        return detector.failures().get(0);
    }

    @Test
    void afterARouterRestartRecoversTheTopologiesOfHostsThatNeverRegisteredAgain() {
        // A restarted router: the topology comes from the store, but only hosts A and B re-registered.
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
        topologies.add(new DeployedTopology(T, JsonMapper.builder().build().readTree(SPEC), plan,
                Map.of(TaskId.parse("t/source#0"), A, TaskId.parse("t/count#0"), B, TaskId.parse("t/count#1"), C,
                        SINK, A), clock.instant()));
        completeCheckpoint(3);
        Instant startedAt = clock.instant();
        for (HostId host : List.of(A, B)) {
            hosts.register(host, URI.create("http://" + host.value()), "tcp://" + host.value() + ":1", clock.instant());
        }
        clock.advance(Duration.ofSeconds(3));
        heartbeat(A, 100);
        heartbeat(B, 100);

        orchestrator.recoverHostsNeverSeen(startedAt);

        assertThat(hostClient.deployments).containsExactlyInAnyOrder("t@host-a:1:3", "t@host-b:1:3");
        assertThat(new HashSet<>(topologies.find(T).orElseThrow().placement().values())).containsExactlyInAnyOrder(A, B);
        Recovery recovery = log.all().get(0);
        assertThat(recovery.failedHost()).isEqualTo(C);
        assertThat(recovery.tasks()).containsExactly(TaskId.parse("t/count#1"));
        assertThat(recovery.detectionMillis()).isEqualTo(3000);

        hostClient.deployments.clear();
        orchestrator.recoverHostsNeverSeen(startedAt);
        assertThat(hostClient.deployments).as("nothing left on unknown hosts").isEmpty();
    }

    @Test
    void checkpointIdsOfATopologyResumedAfterARestartContinueAfterTheStoredOnes() {
        deployOnThreeHosts();
        coordinators.pause(T, "a test paused it");
        completeCheckpoint(7);
        // A fresh set of coordinators, as in a restarted router that found the topology in its store.
        CheckpointCoordinators restarted = new CheckpointCoordinators(topologies, records, (host, topology, id) -> { },
                progress, clock, new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1));
        restarted.tick();
        assertThat(restarted.triggerNow(T)).isEqualTo(new TriggerResult.Triggered(8));
    }

    @Test
    void redeploysEveryTaskOnTheLiveHostsWithTheNextEpochFromTheLatestCompletedCheckpoint() {
        deployOnThreeHosts();
        completeCheckpoint(4);
        completeCheckpoint(5);
        DetectedFailure failure = killC();

        orchestrator.recover(failure);

        assertThat(hostClient.cancelled).containsExactlyInAnyOrder("t@host-a", "t@host-b");
        assertThat(hostClient.deployments).containsExactlyInAnyOrder("t@host-a:1:5", "t@host-b:1:5");
        DeployedTopology redeployed = topologies.find(T).orElseThrow();
        assertThat(redeployed.plan().epoch()).isEqualTo(1);
        assertThat(new HashSet<>(redeployed.placement().values())).containsExactlyInAnyOrder(A, B);
        assertThat(coordinators.coordinator(T)).as("checkpointing resumed").isPresent();

        Recovery recovery = log.all().get(0);
        assertThat(recovery.status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(recovery.failedHost()).isEqualTo(C);
        assertThat(recovery.tasks()).containsExactly(TaskId.parse("t/count#1"));
        assertThat(recovery.restoredFrom()).isEqualTo(5L);
        assertThat(recovery.detectionMillis()).isEqualTo(900);
        assertThat(recovery.detectionCause()).isEqualTo(DetectionCause.HEARTBEAT_TIMEOUT);
        assertThat(recovery.restoreMillis()).isZero();
        assertThat(recovery.sinkRecordsTarget()).isEqualTo(500);
    }

    @Test
    void recordsWhatTheForecasterPredictedForTheFailedHost() {
        deployOnThreeHosts();
        completeCheckpoint(5);
        RecoveryForecast local = new RecoveryForecast("LOCAL", 250.0, 20.0, 8_000, List.of());
        RecoveryForecast global = new RecoveryForecast("GLOBAL", 640.0, 300.0, 90_000, List.of());
        RecoveryForecasts predicted = new RecoveryForecasts(local, global, "LOCAL", "LOCAL: 0.25 s against 0.64 s");
        List<String> asked = new CopyOnWriteArrayList<>();
        RecoveryOrchestrator forecasting = builderWithFakes().forecaster((topology, failure) -> {
            asked.add(topology.id() + "/" + failure.host() + "@" + failure.lastHeartbeat());
            return Optional.of(predicted);
        }).build();
        DetectedFailure failure = killC();

        forecasting.recover(failure);

        assertThat(asked).containsExactly(T + "/" + C + "@" + failure.lastHeartbeat());
        assertThat(log.all().get(0).forecast()).isEqualTo(predicted);
    }

    @Test
    void recoversAllTheSameWhenTheForecasterFails() {
        deployOnThreeHosts();
        completeCheckpoint(5);
        RecoveryOrchestrator failing = builderWithFakes().forecaster((topology, failure) -> {
            throw new IllegalStateException("no model");
        }).build();

        failing.recover(killC());

        assertThat(hostClient.deployments).containsExactlyInAnyOrder("t@host-a:1:5", "t@host-b:1:5");
        assertThat(log.all().get(0).forecast()).isNull();
    }

    private RecoveryOrchestrator.Builder builderWithFakes() {
        return RecoveryOrchestrator.builder().topologies(topologies).detector(detector).placer(new EvenTaskPlacer())
                .hostClient(hostClient).checkpoints(records, coordinators).progress(progress).log(log).clock(clock);
    }

    @Test
    void recordsAFailureConfirmedAfterADataPlaneDisconnectWithItsCause() {
        deployOnThreeHosts();
        heartbeat(A, 0);
        heartbeat(B, 0);
        Instant lastOfC = hosts.find(C).orElseThrow().lastHeartbeat();
        clock.advance(Duration.ofMillis(300));
        detector.declareDead(C, lastOfC, DetectionCause.DATA_PLANE_DISCONNECT, "a peer lost its connection");

        orchestrator.recover(detector.failures().get(0));

        Recovery recovery = log.all().get(0);
        assertThat(recovery.failedHost()).isEqualTo(C);
        assertThat(recovery.detectionCause()).isEqualTo(DetectionCause.DATA_PLANE_DISCONNECT);
        assertThat(recovery.detectionMillis()).isEqualTo(300);
        assertThat(hostClient.deployments).containsExactlyInAnyOrder("t@host-a:1:-", "t@host-b:1:-");
    }

    @Test
    void marksTheRecoveryRecoveredOnceFreshReportsShowTheSinksCaughtUp() {
        deployOnThreeHosts();
        completeCheckpoint(1);
        orchestrator.recover(killC());

        clock.advance(Duration.ofMillis(200));
        heartbeat(A, 100);
        heartbeat(B, 100);
        orchestrator.checkProgress();
        clock.advance(Duration.ofMillis(200));
        heartbeat(A, 499);
        heartbeat(B, 499);
        orchestrator.checkProgress();
        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERING);

        clock.advance(Duration.ofMillis(200));
        heartbeat(A, 500);
        heartbeat(B, 500);
        orchestrator.checkProgress();

        Recovery recovered = log.all().get(0);
        assertThat(recovered.status()).isEqualTo(RecoveryStatus.RECOVERED);
        assertThat(recovered.catchUpMillis()).isEqualTo(600);
    }

    @Test
    void aGlobalRecoveryIsCountedByOutcomeOnceAndTimedOnThePrometheusScrape() {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        log.onSaved(new RecoveryMeters(meters));
        deployOnThreeHosts();
        completeCheckpoint(1);
        orchestrator.recover(killC());
        for (long sinkRecordsIn : new long[] {100, 499, 500, 500}) {
            clock.advance(Duration.ofMillis(200));
            heartbeat(A, sinkRecordsIn);
            heartbeat(B, sinkRecordsIn);
            orchestrator.checkProgress();
        }

        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERED);
        assertThat(meters.scrape())
                .contains("steadfast_recoveries_total{mode=\"GLOBAL\",outcome=\"RECOVERED\"} 1.0")
                .contains("steadfast_recoveries_total{mode=\"GLOBAL\",outcome=\"FAILED\"} 0.0")
                .contains("steadfast_recovery_detection_seconds_sum 0.9")
                .contains("steadfast_recovery_restore_seconds_count{mode=\"GLOBAL\"} 1")
                .contains("steadfast_recovery_catchup_seconds_sum{mode=\"GLOBAL\"} 0.6")
                .contains("steadfast_recovery_replayed_records_total 0.0");
    }

    @Test
    void aRecoveryThatFoundNoLiveHostIsCountedFailed() {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        log.onSaved(new RecoveryMeters(meters));
        failForWantOfLiveHosts();

        assertThat(meters.scrape()).contains("steadfast_recoveries_total{mode=\"LOCAL\",outcome=\"FAILED\"} 1.0")
                .contains("steadfast_recoveries_total{mode=\"LOCAL\",outcome=\"RECOVERED\"} 0.0");
    }

    @Test
    void startsOverWithoutRestoreWhenNoCheckpointCompleted() {
        deployOnThreeHosts();

        orchestrator.recover(killC());

        assertThat(hostClient.deployments).containsExactlyInAnyOrder("t@host-a:1:-", "t@host-b:1:-");
        assertThat(log.all().get(0).restoredFrom()).isNull();
    }

    @Test
    void failsWithNoLiveHostsWhenEveryHostIsDeadAndRecoversAtTheNextDetection() {
        deployOnThreeHosts();
        completeCheckpoint(2);
        clock.advance(Duration.ofSeconds(1));
        detector.sweep();

        orchestrator.recover(detector.failures().get(0));

        Recovery failed = log.all().get(0);
        assertThat(failed.status()).isEqualTo(RecoveryStatus.FAILED);
        assertThat(failed.failureReason()).isEqualTo("NO_LIVE_HOSTS");
        assertThat(hostClient.deployments).isEmpty();
        assertThat(topologies.find(T).orElseThrow().plan().epoch()).isZero();
    }

    @Test
    void aRedeployThatFailsIsRecordedAndRetriedAtTheNextDetection() {
        deployOnThreeHosts();
        completeCheckpoint(3);
        hostClient.failing.add(B);

        orchestrator.recover(killC());

        assertThat(log.all().get(0).failureReason()).isEqualTo("REDEPLOY_FAILED");
        assertThat(topologies.find(T).orElseThrow().plan().epoch()).isZero();

        // B dies too; A alone takes every task
        hostClient.failing.clear();
        clock.advance(Duration.ofMillis(900));
        heartbeat(A, 0);
        detector.sweep();
        orchestrator.recover(detector.failures().get(1));

        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(hostClient.deployments).contains("t@host-a:1:3");
        assertThat(new HashSet<>(topologies.find(T).orElseThrow().placement().values())).containsExactly(A);
    }

    @Test
    void aFailedRedeployIsRetriedAfterTheBackoffWithoutWaitingForAnotherFailure() {
        deployOnThreeHosts();
        completeCheckpoint(3);
        hostClient.failing.add(B);
        orchestrator.recover(killC());
        assertThat(log.all().get(0).failureReason()).isEqualTo("REDEPLOY_FAILED");

        hostClient.failing.clear();
        clock.advance(RecoveryOrchestrator.RETRY_BACKOFF.minusMillis(100));
        heartbeat(A, 0);
        heartbeat(B, 0);
        orchestrator.retryFailed();
        assertThat(topologies.find(T).orElseThrow().plan().epoch()).as("not before the backoff").isZero();

        clock.advance(Duration.ofMillis(200));
        heartbeat(A, 0);
        heartbeat(B, 0);
        orchestrator.retryFailed();

        assertThat(topologies.find(T).orElseThrow().plan().epoch()).isEqualTo(1);
        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(new HashSet<>(topologies.find(T).orElseThrow().placement().values())).containsExactlyInAnyOrder(A, B);
    }

    /** Deploys on three hosts that all go silent: their recovery fails with NO_LIVE_HOSTS. */
    private void failForWantOfLiveHosts() {
        deployOnThreeHosts();
        clock.advance(Duration.ofSeconds(1));
        detector.sweep();
        orchestrator.recover(detector.failures().get(0));
        assertThat(log.all().get(0).failureReason()).isEqualTo("NO_LIVE_HOSTS");
    }

    @Test
    void checkpointingPausesWhenNoHostIsLiveToRecoverOnAndResumesWhenALaterRecoverySucceeds() {
        failForWantOfLiveHosts();

        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(1));
            coordinators.tick();
        }

        assertThat(triggers).as("no checkpoint while no host is LIVE").isEmpty();
        CheckpointingStatus paused = coordinators.status(T).orElseThrow();
        assertThat(paused.state()).isEqualTo(CheckpointingStatus.State.PAUSED);
        assertThat(paused.reason()).contains("recovery 1 failed (NO_LIVE_HOSTS)")
                .contains("resumes once a later recovery succeeds");

        hosts.heartbeat(A, List.of(), clock.instant()); // host A is back
        orchestrator.retryFailed();
        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(coordinators.status(T).orElseThrow().state()).isEqualTo(CheckpointingStatus.State.ACTIVE);

        clock.advance(Duration.ofSeconds(1));
        hosts.heartbeat(A, List.of(), clock.instant());
        coordinators.tick();
        assertThat(triggers).containsExactly("t@host-a:1");
    }

    @Test
    void aNewRecoveryOfATopologyAbandonsTheOneStillCatchingUp() {
        deployOnThreeHosts();
        orchestrator.recover(killC());
        Recovery first = log.all().get(0);
        assertThat(first.status()).isEqualTo(RecoveryStatus.RECOVERING);

        // B dies before the sinks caught up: a second recovery redeploys on A alone
        clock.advance(Duration.ofMillis(900));
        heartbeat(A, 0);
        detector.sweep();
        orchestrator.recover(detector.failures().get(1));

        Recovery abandoned = log.all().get(1);
        assertThat(abandoned.id()).isEqualTo(first.id());
        assertThat(abandoned.status()).isEqualTo(RecoveryStatus.ABANDONED);
        assertThat(abandoned.failureReason()).isEqualTo("SUPERSEDED");
        assertThat(abandoned.message()).contains("Recovery " + log.all().get(0).id()).contains("host-b");
        assertThat(log.recovering()).extracting(Recovery::epoch).containsExactly(2);
    }

    @Test
    void aRecoveryWhoseTopologyWasCancelledBeforeItCaughtUpIsAbandoned() {
        deployOnThreeHosts();
        orchestrator.recover(killC());
        topologies.remove(T);

        orchestrator.checkProgress();

        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.ABANDONED);
        assertThat(log.all().get(0).failureReason()).isEqualTo("TOPOLOGY_CANCELLED");
        assertThat(log.recovering()).isEmpty();
    }

    @Test
    void aRecoveryThatFoundNoLiveHostIsRetriedWhenItsHostsComeBackThoughNoneOfThemIsDeadAnyMore() {
        failForWantOfLiveHosts();

        clock.advance(RecoveryOrchestrator.RETRY_BACKOFF);
        List.of(A, B, C).forEach(host -> heartbeat(host, 0)); // all back: no task sits on a dead host now
        orchestrator.retryFailed();

        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(topologies.find(T).orElseThrow().plan().epoch()).isEqualTo(1);
        assertThat(hostClient.cancelled).containsExactlyInAnyOrder("t@host-a", "t@host-b", "t@host-c");
        assertThat(coordinators.status(T).orElseThrow().state()).isEqualTo(CheckpointingStatus.State.ACTIVE);
    }
}
