package io.steadfast.router.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.steadfast.protocol.router.RecoveryForecast;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.FakeHostClient;
import io.steadfast.router.checkpoint.CheckpointCoordinator;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointSettings;
import io.steadfast.router.checkpoint.CompletionNotices;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.router.checkpoint.TaskAck;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.placement.EvenTaskPlacer;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.InMemoryTopologyRepository;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.RecoveryCatchUp;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The router's side of local recovery, against recording hosts: which hosts are asked what, in which order, what
 * the recovery records, and when it falls back to a global one.
 */
class LocalRecoveryOrchestrationTest {

    private static final TopologyId T = TopologyId.of("t");
    private static final HostId A = new HostId("host-a");
    private static final HostId B = new HostId("host-b");
    private static final HostId C = new HostId("host-c");
    private static final HostId STANDBY = new HostId("host-d");
    private static final HostId STANDBY2 = new HostId("host-e");
    private static final TaskId SOURCE = TaskId.parse("t/source#0");
    private static final TaskId COUNT0 = TaskId.parse("t/count#0");
    private static final TaskId COUNT1 = TaskId.parse("t/count#1");
    private static final TaskId SINK = TaskId.parse("t/sink#0");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, Duration.ofMillis(800));
    private final InMemoryTopologyRepository topologies = new InMemoryTopologyRepository();
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);
    private final FakeHostClient hostClient = new FakeHostClient();
    private final TopologyProgress progress = new TopologyProgress(detector);
    private final CompletionNotices notices = new CompletionNotices(detector, hostClient);
    private final CheckpointCoordinators coordinators = new CheckpointCoordinators(topologies, records,
            (host, topology, id) -> { }, progress, clock,
            new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1), notices);
    private final RecoveryLog log = new RecoveryLog();
    private final RecoveryOrchestrator orchestrator = orchestrator(new StandbyHosts(1));
    private RecoveryOrchestrator orchestrator(StandbyHosts standby) {
        return RecoveryOrchestrator.builder().topologies(topologies).detector(detector).placer(new EvenTaskPlacer())
                .hostClient(hostClient).checkpoints(records, coordinators).progress(progress).log(log).clock(clock)
                .standby(standby).build();
    }

    /** Records taken in by each task as last reported, per host. */
    private final Map<HostId, Map<TaskId, Long>> reported = new TreeMap<>();

    private final List<RecoveryOrchestrator> extraOrchestrators = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        orchestrator.close();
        for (RecoveryOrchestrator extra : extraOrchestrators) {
            extra.close();
        }
        notices.close();
    }

    private void deploy(String recoverySection) {
        String spec = """
                {"id": "t", %s "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 10}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
                ]}""".formatted(recoverySection);
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(spec));
        for (HostId host : List.of(A, B, C)) {
            hosts.register(host, URI.create("http://" + host.value()), "tcp://" + host.value() + ":1", clock.instant());
        }
        clock.advance(Duration.ofMillis(10));
        hosts.register(STANDBY, URI.create("http://host-d"), "tcp://host-d:1", clock.instant());
        topologies.add(new DeployedTopology(T, JsonMapper.builder().build().readTree(spec), plan,
                Map.of(SOURCE, A, COUNT0, B, COUNT1, C, SINK, A), clock.instant()));
        detector.sweep();
        coordinators.tick();
    }

    /** Deploys with the source and both counters on host C, the sink on A: three tasks lost with C. */
    private void deployWithEveryTaskButTheSinkOnC() {
        deploy("");
        DeployedTopology deployed = topologies.find(T).orElseThrow();
        topologies.replace(new DeployedTopology(T, deployed.spec(), deployed.plan(),
                Map.of(SOURCE, C, COUNT0, C, COUNT1, C, SINK, A), clock.instant()));
        // checkpointed as placed now: a coordinator takes acks only from the hosts its checkpoints were triggered on
        coordinators.pause(T, "placed anew");
        coordinators.resume(T);
    }

    /** Triggers the next checkpoint and acknowledges it for every task: it completes. */
    private long completeCheckpoint() {
        long id = triggerCheckpoint();
        topologies.find(T).orElseThrow().placement().keySet().forEach(task -> acknowledge(id, task));
        assertThat(coordinators.lastCompleted(T)).hasValueSatisfying(done -> assertThat(done.checkpointId())
                .isEqualTo(id));
        return id;
    }

    /** Triggers the next checkpoint, acknowledged by no task yet. */
    private long triggerCheckpoint() {
        clock.advance(Duration.ofSeconds(1));
        java.util.Set<HostId> running = new java.util.TreeSet<>(topologies.find(T).orElseThrow().placement().values());
        running.add(STANDBY);
        running.forEach(host -> heartbeat(host, reported.getOrDefault(host, Map.of()), Map.of()));
        coordinators.tick();
        return coordinators.lastTriggeredId(T);
    }

    private void acknowledge(long checkpoint, TaskId task) {
        DeployedTopology deployed = topologies.find(T).orElseThrow();
        coordinators.acknowledge(T, checkpoint, new TaskAck(task, deployed.placement().get(task),
                deployed.incarnationOf(task), 1, 0, 0));
    }

    private void heartbeat(HostId host, Map<TaskId, Long> recordsIn, Map<TaskId, RecoveryCatchUp> catchUps) {
        List<TaskReport> reports = new ArrayList<>();
        recordsIn.forEach((task, in) -> reports.add(new TaskReport(task.toString(), "type", TaskStatus.RUNNING,
                TaskReport.Throughput.takenIn(in), TaskReport.InputHealth.IDLE, null, catchUps.get(task))));
        reported.put(host, recordsIn);
        hosts.heartbeat(host, reports, clock.instant());
    }

    /** Host C goes silent while A, B and the standbys report; detected DEAD one timeout after its last heartbeat. */
    private DetectedFailure killC() {
        for (int i = 0; i < 2; i++) {
            heartbeat(A, Map.of(SOURCE, 1_000L + i, SINK, 500L + i), Map.of());
            heartbeat(B, Map.of(COUNT0, 400L + i), Map.of());
            heartbeat(STANDBY, Map.of(), Map.of());
            if (hosts.find(STANDBY2).isPresent()) {
                heartbeat(STANDBY2, Map.of(), Map.of());
            }
            clock.advance(Duration.ofMillis(450));
        }
        detector.sweep();
        assertThat(detector.failures()).hasSize(1);
        return detector.failures().get(0);
    }

    /** Host B reports its counter FAILED with {@code incarnation}, the others RUNNING. */
    private void countOnBFails(int incarnation) {
        hosts.heartbeat(B, List.of(new TaskReport(COUNT0.toString(), "keyed-count", TaskStatus.FAILED,
                TaskReport.Throughput.takenIn(5), TaskReport.InputHealth.IDLE,
                "java.lang.IllegalArgumentException: bad input", null, incarnation)), clock.instant());
        heartbeat(A, Map.of(SOURCE, 1_000L, SINK, 500L), Map.of());
        heartbeat(C, Map.of(COUNT1, 400L), Map.of());
        heartbeat(STANDBY, Map.of(), Map.of());
    }

    @Test
    void aTaskThatFailsOnALiveHostIsRestartedInPlaceThereAsANewIncarnationWithBackoffThenFailsItsTopology() {
        deploy("");
        long checkpoint = completeCheckpoint();
        countOnBFails(0);

        orchestrator.checkProgress();

        assertThat(hostClient.cancelled).as("the failed task's topology stops on its host first")
                .containsExactly("t@host-b");
        assertThat(hostClient.recoveries).as("restarted in place on the same, live host")
                .containsExactly("t@host-b:[t/count#0]:" + checkpoint);
        DeployedTopology now = topologies.find(T).orElseThrow();
        assertThat(now.placement()).containsEntry(COUNT0, B);
        assertThat(now.incarnationOf(COUNT0)).isEqualTo(1);
        assertThat(log.all()).singleElement().satisfies(recovery -> {
            assertThat(recovery.detectionCause()).isEqualTo(DetectionCause.TASK_FAILED);
            assertThat(recovery.mode()).isEqualTo(RecoveryMode.LOCAL);
        });

        countOnBFails(0);
        orchestrator.checkProgress();
        assertThat(hostClient.recoveries).as("a report of the incarnation restarted already changes nothing")
                .hasSize(1);

        for (int attempt = 2; attempt <= 5; attempt++) {
            int incarnation = topologies.find(T).orElseThrow().incarnationOf(COUNT0);
            countOnBFails(incarnation);
            orchestrator.checkProgress();
            assertThat(hostClient.recoveries).as("backing off after restart %d", attempt - 1).hasSize(attempt - 1);
            clock.advance(Duration.ofSeconds(30));
            countOnBFails(incarnation);
            orchestrator.checkProgress();
            assertThat(hostClient.recoveries).as("restart %d", attempt).hasSize(attempt);
        }

        countOnBFails(topologies.find(T).orElseThrow().incarnationOf(COUNT0));
        orchestrator.checkProgress();
        assertThat(hostClient.recoveries).as("five restarts in five minutes at most").hasSize(5);
        Recovery last = log.all().stream().max(java.util.Comparator.comparingLong(Recovery::id)).orElseThrow();
        assertThat(last.status()).isEqualTo(RecoveryStatus.FAILED);
        assertThat(last.failureReason()).isEqualTo("TASK_FAILED_REPEATEDLY");
        assertThat(last.message()).contains("t/count#0", "IllegalArgumentException: bad input");
        clock.advance(Duration.ofSeconds(10));
        orchestrator.retryFailed();
        assertThat(hostClient.recoveries).as("never retried").hasSize(5);
    }

    @Test
    void recoversTheLostTaskInPlaceOnTheStandbyHostAndLeavesEveryOtherTaskRunning() {
        deploy("");
        long checkpoint = completeCheckpoint();
        await().until(() -> hostClient.completions.size() == 3);
        assertThat(hostClient.completions).as("every host of the topology learns of the completed checkpoint")
                .containsExactlyInAnyOrder("t@host-a:1", "t@host-b:1", "t@host-c:1");

        orchestrator.recover(killC());

        assertThat(hostClient.recoveries).containsExactly("t@host-d:[t/count#1]:" + checkpoint);
        assertThat(hostClient.redirects).as("the live hosts that ran tasks of the topology point their channels at"
                + " the moved task; the standby has none").containsExactlyInAnyOrder("t@host-a:[t/count#1]",
                "t@host-b:[t/count#1]");
        assertThat(hostClient.redirectHosts).as("each learns the host behind the new endpoint, to name it should its"
                + " connection there drop").containsOnly(Map.entry("t@host-a", Map.of("tcp://host-d:1", STANDBY)),
                Map.entry("t@host-b", Map.of("tcp://host-d:1", STANDBY)));
        assertThat(hostClient.deployments).as("nothing was redeployed").isEmpty();
        assertThat(hostClient.cancelled).as("nothing was cancelled").isEmpty();
        DeployedTopology now = topologies.find(T).orElseThrow();
        assertThat(now.plan().epoch()).as("the same epoch: the other tasks keep their channels").isZero();
        assertThat(now.placement()).containsEntry(COUNT1, STANDBY).containsEntry(COUNT0, B).containsEntry(SOURCE, A);
        assertThat(now.incarnationOf(COUNT1)).as("the moved task runs as a new incarnation").isEqualTo(1);
        assertThat(now.incarnationOf(COUNT0)).as("the others as before").isZero();
        assertThat(hostClient.redirectIncarnations).as("every redirected host learns it, to refuse the old one")
                .containsOnly(Map.entry("t@host-a", Map.of(COUNT1, 1)), Map.entry("t@host-b", Map.of(COUNT1, 1)));
        assertThat(hostClient.recoveryPlacements.values()).singleElement().satisfies(placement ->
                assertThat(placement.incarnationOf(COUNT1)).isEqualTo(1));
        Recovery recovery = log.all().get(0);
        assertThat(recovery.mode()).isEqualTo(RecoveryMode.LOCAL);
        assertThat(recovery.status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(recovery.restoredFrom()).isEqualTo(checkpoint);
        assertThat(recovery.local().placedOn()).containsExactly(Map.entry("t/count#1", "host-d"));
        assertThat(recovery.local().standbyHosts()).isEqualTo(1);

        clock.advance(Duration.ofMillis(200));
        heartbeat(A, Map.of(SOURCE, 2_000L, SINK, 900L), Map.of());
        heartbeat(B, Map.of(COUNT0, 800L), Map.of());
        heartbeat(STANDBY, Map.of(COUNT1, 350L), Map.of());
        orchestrator.checkProgress();
        assertThat(log.all().get(0).status()).as("not caught up until the task says so")
                .isEqualTo(RecoveryStatus.RECOVERING);

        heartbeat(STANDBY, Map.of(COUNT1, 420L), Map.of(COUNT1, new RecoveryCatchUp(180, 300, 4_000)));
        orchestrator.checkProgress();

        Recovery done = log.all().get(0);
        assertThat(done.status()).isEqualTo(RecoveryStatus.RECOVERED);
        assertThat(done.caughtUpAt()).isEqualTo(done.local().requestedAt().plusMillis(180));
        assertThat(done.local().replayedRecords()).isEqualTo(300);
        assertThat(done.local().replayedBytes()).isEqualTo(4_000);
        assertThat(done.otherTasksPaused()).as("every other task reported more records than at the failure").isFalse();
    }

    @Test
    void anAutoTopologyRecoversLocallyWhenTheModelPredictsLocalFaster() {
        RecoveryOrchestrator auto = orchestratorForecasting("LOCAL");
        deploy("\"recovery\": {\"mode\": \"AUTO\"},");
        long checkpoint = completeCheckpoint();

        auto.recover(killC());

        assertThat(hostClient.recoveries).as("in place on the standby").containsExactly("t@host-d:[t/count#1]:"
                + checkpoint);
        assertThat(hostClient.deployments).as("nothing redeployed").isEmpty();
        assertThat(log.all()).singleElement().satisfies(recovery -> {
            assertThat(recovery.mode()).isEqualTo(RecoveryMode.LOCAL);
            assertThat(recovery.forecast().chosen()).isEqualTo("LOCAL");
            assertThat(recovery.forecast().reason()).as("why, kept with the record").contains("LOCAL predicted");
        });
    }

    @Test
    void anAutoTopologyRecoversGloballyWhenTheModelPredictsGlobalFaster() {
        RecoveryOrchestrator auto = orchestratorForecasting("GLOBAL");
        deploy("\"recovery\": {\"mode\": \"AUTO\"},");
        long checkpoint = completeCheckpoint();

        auto.recover(killC());

        assertThat(hostClient.recoveries).as("no task recovered in place").isEmpty();
        assertThat(hostClient.deployments).as("every task redeployed from the checkpoint on the next epoch")
                .isNotEmpty().allSatisfy(deployment -> assertThat(deployment).endsWith(":1:" + checkpoint));
        assertThat(log.all()).singleElement().satisfies(recovery -> {
            assertThat(recovery.mode()).isEqualTo(RecoveryMode.GLOBAL);
            assertThat(recovery.forecast().chosen()).isEqualTo("GLOBAL");
            assertThat(recovery.local()).as("no local attempt").isNull();
        });
    }

    /** An orchestrator whose forecaster predicts {@code faster} to recover sooner, in 250 ms against 640 ms. */
    private RecoveryOrchestrator orchestratorForecasting(String faster) {
        String slower = faster.equals("LOCAL") ? "GLOBAL" : "LOCAL";
        RecoveryForecast fast = new RecoveryForecast(faster, 250.0, 20.0, 1_000, List.of());
        RecoveryForecast slow = new RecoveryForecast(slower, 640.0, 300.0, 9_000, List.of());
        RecoveryForecasts forecast = new RecoveryForecasts(faster.equals("LOCAL") ? fast : slow,
                faster.equals("LOCAL") ? slow : fast, faster, faster + " predicted in 250 ms against 640 ms");
        RecoveryOrchestrator built = RecoveryOrchestrator.builder().topologies(topologies).detector(detector)
                .placer(new EvenTaskPlacer()).hostClient(hostClient).checkpoints(records, coordinators)
                .progress(progress).log(log).clock(clock).standby(new StandbyHosts(1))
                .forecaster((topology, failure) -> Optional.of(forecast)).build();
        extraOrchestrators.add(built);
        return built;
    }

    @Test
    void aLocalRecoveryThatCaughtUpIsCountedTimedAndItsReplayMeasuredOnThePrometheusScrape() {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        log.onSaved(new RecoveryMeters(meters));
        deploy("");
        completeCheckpoint();
        orchestrator.recover(killC());
        assertThat(meters.scrape()).as("not ended yet")
                .contains("steadfast_recoveries_total{mode=\"LOCAL\",outcome=\"RECOVERED\"} 0.0")
                .contains("steadfast_recovery_detection_seconds_count 1")
                .contains("steadfast_recovery_restore_seconds_count{mode=\"LOCAL\"} 1")
                .doesNotContain("steadfast_recovery_catchup_seconds_count");

        clock.advance(Duration.ofMillis(200));
        heartbeat(A, Map.of(SOURCE, 2_000L, SINK, 900L), Map.of());
        heartbeat(B, Map.of(COUNT0, 800L), Map.of());
        heartbeat(STANDBY, Map.of(COUNT1, 420L), Map.of(COUNT1, new RecoveryCatchUp(180, 300, 4_000)));
        orchestrator.checkProgress();
        orchestrator.checkProgress();

        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERED);
        assertThat(meters.scrape())
                .contains("steadfast_recoveries_total{mode=\"LOCAL\",outcome=\"RECOVERED\"} 1.0")
                .contains("steadfast_recoveries_total{mode=\"GLOBAL\",outcome=\"RECOVERED\"} 0.0")
                .contains("steadfast_recovery_detection_seconds_sum 0.9")
                .contains("steadfast_recovery_catchup_seconds_count{mode=\"LOCAL\"} 1")
                .contains("steadfast_recovery_catchup_seconds_sum{mode=\"LOCAL\"} 0.18")
                .contains("steadfast_recovery_replayed_records_total 300.0")
                .contains("steadfast_recovery_replayed_bytes_total 4000.0");
    }

    @Test
    void sendsTheCatchUpTargetsAsSoonAsTheRedirectsAnsweredNotAfterTheTargetHosts() {
        deploy("");
        completeCheckpoint();
        ChannelId intoCount1 = topologies.find(T).orElseThrow().plan().channels().stream()
                .filter(channel -> channel.to().equals(COUNT1)).findFirst().orElseThrow().id();
        hostClient.redirectHeads.put(intoCount1, 42L);
        hostClient.recoveryWaitsForTargets = Duration.ofSeconds(2);

        orchestrator.recover(killC());

        assertThat(hostClient.catchUpTargetCalls).containsExactly("t@host-d:{" + intoCount1 + "=42}");
        assertThat(hostClient.recoveriesAnsweredAfterTargets).as("the standby had its targets while still recovering")
                .containsExactly("host-d");
        assertThat(log.all().get(0).mode()).isEqualTo(RecoveryMode.LOCAL);
    }

    @Test
    void putsEveryTaskOfTheLostHostOnTheStandbyHowManyThereAre() {
        deployWithEveryTaskButTheSinkOnC();
        completeCheckpoint();

        orchestrator.recover(killC());

        assertThat(hostClient.recoveries).as("three lost tasks: the standby takes the lost host's place, B (idle) is"
                + " left alone")
                .containsExactly("t@host-d:[t/count#0, t/count#1, t/source#0]:1");
    }

    @Test
    void aSuspectedHostsTasksHaveTheirSnapshotsFetchedAheadOnTheHostsThatThenRecoverThem() {
        deployWithEveryTaskButTheSinkOnC();
        long checkpoint = completeCheckpoint();
        heartbeat(A, Map.of(SINK, 500L), Map.of()); // the others report; C has gone silent and is suspected
        heartbeat(B, Map.of(), Map.of());
        heartbeat(STANDBY, Map.of(), Map.of());

        orchestrator.prefetchFor(C);

        await().until(() -> hostClient.prefetches.size() == 1);
        assertThat(hostClient.prefetches).containsExactlyInAnyOrder("t@host-d:[t/count#0, t/count#1, t/source#0]:" + checkpoint);
        assertThat(hostClient.recoveries).as("nothing recovered before the failure is confirmed").isEmpty();
        orchestrator.recover(killC());
        assertThat(hostClient.recoveries).as("the same hosts recover the same tasks from the same checkpoint")
                .containsExactlyInAnyOrder("t@host-d:[t/count#0, t/count#1, t/source#0]:" + checkpoint);
        String recovery = "t@host-d:[t/count#0, t/count#1, t/source#0]:" + checkpoint;
        assertThat(hostClient.prefetchPlacements.get(recovery)).as("the tasks were prepared for the placement the"
                + " recovery has").isNotNull().isEqualTo(hostClient.recoveryPlacements.get(recovery));
    }

    @Test
    void aPendingCheckpointThatEveryTaskOfTheSuspectedHostAcknowledgedHasItsSnapshotsFetchedAheadToo() {
        deployWithEveryTaskButTheSinkOnC();
        long completed = completeCheckpoint();
        long pending = triggerCheckpoint();
        acknowledge(pending, SOURCE);
        acknowledge(pending, COUNT0); // count#1, also on C, has not acknowledged yet; nor has the sink on A
        heartbeat(A, Map.of(SINK, 500L), Map.of());
        heartbeat(B, Map.of(), Map.of());
        heartbeat(STANDBY, Map.of(), Map.of());

        orchestrator.prefetchFor(C);
        await().until(() -> hostClient.prefetches.size() == 1);
        assertThat(hostClient.prefetches).as("count#1's snapshot may never be stored: the completed one only")
                .containsExactlyInAnyOrder("t@host-d:[t/count#0, t/count#1, t/source#0]:" + completed);

        acknowledge(pending, COUNT1);
        hostClient.prefetches.clear();
        hostClient.prefetchPeers.clear();
        orchestrator.prefetchFor(C);
        await().until(() -> hostClient.prefetches.size() == 2);
        assertThat(hostClient.prefetches).as("C's tasks all acknowledged the pending one: it may complete while C is"
                + " suspected").containsExactlyInAnyOrder(
                "t@host-d:[t/count#0, t/count#1, t/source#0]:" + completed,
                "t@host-d:[t/count#0, t/count#1, t/source#0]:" + pending);
        assertThat(hostClient.prefetchPeers).as("the decisions are fetched ahead once per host, with the first")
                .containsEntry("t@host-d:[t/count#0, t/count#1, t/source#0]:" + completed, List.of(URI.create("http://host-a")))
                .containsEntry("t@host-d:[t/count#0, t/count#1, t/source#0]:" + pending, List.of());

        acknowledge(pending, SINK); // the last ack comes while C is suspected: the pending checkpoint completes
        orchestrator.recover(killC());
        assertThat(hostClient.recoveries).as("restored from the checkpoint whose snapshots were fetched ahead")
                .containsExactlyInAnyOrder("t@host-d:[t/count#0, t/count#1, t/source#0]:" + pending);
    }

    @Test
    void aCheckpointThatCompletesWhileAHostIsSuspectedHasItsSnapshotsFetchedAheadThen() {
        deployWithEveryTaskButTheSinkOnC();
        long completed = completeCheckpoint();
        long pending = triggerCheckpoint(); // C's acks were sent before it went silent, and arrive after the suspicion
        heartbeat(A, Map.of(SINK, 500L), Map.of());
        heartbeat(B, Map.of(), Map.of());
        heartbeat(STANDBY, Map.of(), Map.of());
        orchestrator.prefetchFor(C);
        await().until(() -> hostClient.prefetches.size() == 1);

        List.of(SOURCE, COUNT0, COUNT1, SINK).forEach(task -> acknowledge(pending, task));

        await().until(() -> hostClient.prefetches.size() == 2);
        assertThat(hostClient.prefetches).containsExactlyInAnyOrder(
                "t@host-d:[t/count#0, t/count#1, t/source#0]:" + completed,
                "t@host-d:[t/count#0, t/count#1, t/source#0]:" + pending);
        assertThat(hostClient.prefetchPeers.get("t@host-d:[t/count#0, t/count#1, t/source#0]:" + pending))
                .as("the decisions were fetched ahead with the suspicion").isEmpty();
        orchestrator.recover(killC());
        assertThat(hostClient.recoveries).containsExactlyInAnyOrder("t@host-d:[t/count#0, t/count#1, t/source#0]:" + pending);
    }

    @Test
    void aCheckpointThatCompletesLongAfterASuspicionFetchesNothingAhead() {
        deployWithEveryTaskButTheSinkOnC();
        completeCheckpoint();
        heartbeat(A, Map.of(SINK, 500L), Map.of());
        heartbeat(B, Map.of(), Map.of());
        heartbeat(STANDBY, Map.of(), Map.of());
        orchestrator.prefetchFor(C); // C answered after all: it stays LIVE, and nobody says so to the orchestrator
        await().until(() -> hostClient.prefetches.size() == 1);
        clock.advance(SuspicionPrefetch.SUSPICION_KEPT.plusMillis(1));
        hostClient.prefetches.clear();

        completeCheckpoint();

        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                .until(() -> hostClient.prefetches.isEmpty());
    }

    @Test
    void passesOnWhatTheRedirectedHostsHoldOfTheLostTasksDecisionsToEveryTargetUnderTheRecoverysId() throws Exception {
        deployWithEveryTaskButTheSinkOnC();
        clock.advance(Duration.ofMillis(10));
        hosts.register(STANDBY2, URI.create("http://host-e"), "tcp://host-e:1", clock.instant());
        long checkpoint = completeCheckpoint();
        heartbeat(A, Map.of(SINK, 500L), Map.of());
        heartbeat(B, Map.of(), Map.of());
        heartbeat(STANDBY, Map.of(), Map.of());
        heartbeat(STANDBY2, Map.of(), Map.of());
        orchestrator.close();
        try (RecoveryOrchestrator twoStandbys = orchestrator(new StandbyHosts(2))) {
            twoStandbys.prefetchFor(C);
            await().until(() -> hostClient.prefetches.size() == 2);
            assertThat(hostClient.prefetches).as("the lost tasks (in task order) spread over both standbys, the last registered first")
                    .containsExactlyInAnyOrder("t@host-e:[t/count#0, t/source#0]:" + checkpoint,
                            "t@host-d:[t/count#1]:" + checkpoint);
            assertThat(hostClient.prefetchPeers.get("t@host-e:[t/count#0, t/source#0]:" + checkpoint))
                    .as("the decisions are fetched ahead from the live hosts that ran tasks of the topology (only A,"
                            + " with the sink): B and the standbys hold none")
                    .containsExactly(URI.create("http://host-a"));
            hostClient.heldDecisions.put(A, Map.of(SOURCE, new DecisionSpan(0, 12), COUNT1,
                    new DecisionSpan(3, 9)));

            twoStandbys.recover(killC());
        }

        assertThat(hostClient.recoveries).containsExactlyInAnyOrder(
                "t@host-e:[t/count#0, t/source#0]:" + checkpoint, "t@host-d:[t/count#1]:" + checkpoint);
        String recovery = hostClient.recoveryIds.get(STANDBY);
        assertThat(recovery).isNotBlank().isEqualTo(hostClient.recoveryIds.get(STANDBY2));
        assertThat(hostClient.catchUps).as("every target host, though no channel into its tasks has a head")
                .containsOnlyKeys(STANDBY, STANDBY2);
        hostClient.catchUps.values().forEach(catchUp -> {
            assertThat(catchUp.recovery()).isEqualTo(recovery);
            assertThat(catchUp.heldDecisions()).as("what the one host redirected holds").containsExactly(
                    Map.entry(URI.create("http://host-a"), Map.of(SOURCE, new DecisionSpan(0, 12), COUNT1,
                            new DecisionSpan(3, 9))));
        });
        assertThat(hostClient.redirects).as("B and the standbys ran no task of the topology: nothing to redirect")
                .containsExactly("t@host-a:[t/count#0, t/count#1, t/source#0]");
    }

    @Test
    void fetchesNothingAheadBeforeACheckpointCompletedOrForAGloballyRecoveredTopology() {
        deploy("");
        orchestrator.prefetchFor(C);
        topologies.replace(new DeployedTopology(T, topologies.find(T).orElseThrow().spec(),
                topologies.find(T).orElseThrow().plan().withRecoveryMode(RecoveryMode.GLOBAL),
                topologies.find(T).orElseThrow().placement(), clock.instant()));
        completeCheckpoint();
        orchestrator.prefetchFor(C);
        orchestrator.prefetchFor(STANDBY); // runs no task

        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                .until(() -> hostClient.prefetches.isEmpty());
    }

    @Test
    void saysOtherTasksPausedWhenOneOfThemWasRolledBack() {
        deploy("");
        completeCheckpoint();
        orchestrator.recover(killC());

        heartbeat(A, Map.of(SOURCE, 10L, SINK, 900L), Map.of()); // the source started over
        heartbeat(B, Map.of(COUNT0, 800L), Map.of());
        heartbeat(STANDBY, Map.of(COUNT1, 420L), Map.of(COUNT1, new RecoveryCatchUp(90, 300, 4_000)));
        orchestrator.checkProgress();

        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERED);
        assertThat(log.all().get(0).otherTasksPaused()).isTrue();
    }

    @Test
    void checkpointsResumeOnTheNewPlacementOnceTheRecoveredTasksCaughtUp() {
        deploy("");
        completeCheckpoint();
        orchestrator.recover(killC());
        heartbeat(A, Map.of(SOURCE, 2_000L, SINK, 900L), Map.of());
        heartbeat(B, Map.of(COUNT0, 800L), Map.of());
        heartbeat(STANDBY, Map.of(COUNT1, 420L), Map.of());
        orchestrator.checkProgress();
        assertThat(coordinators.isPaused(T)).as("no barrier while the recovered task replays").isTrue();
        clock.advance(Duration.ofSeconds(1));
        coordinators.tick();
        assertThat(coordinators.lastTriggeredId(T)).isEqualTo(1);

        heartbeat(STANDBY, Map.of(COUNT1, 480L), Map.of(COUNT1, new RecoveryCatchUp(180, 300, 4_000)));
        orchestrator.checkProgress();
        assertThat(coordinators.isPaused(T)).isFalse();
        long next = completeCheckpoint();

        assertThat(next).isEqualTo(2);
        await().until(() -> hostClient.completions.contains("t@host-d:2"));
        assertThat(hostClient.completions).as("the dead host is no longer told").doesNotContain("t@host-c:2");
    }

    @Test
    void checkpointsResumeWhenTheRecoveredTasksHaveNotCaughtUpInTime() {
        deploy("");
        completeCheckpoint();
        orchestrator.recover(killC());
        heartbeat(STANDBY, Map.of(COUNT1, 420L), Map.of());
        clock.advance(LocalRecovery.CHECKPOINTS_HELD_AT_MOST.minusMillis(1));
        orchestrator.checkProgress();
        assertThat(coordinators.isPaused(T)).isTrue();

        clock.advance(Duration.ofMillis(1));
        orchestrator.checkProgress();

        assertThat(coordinators.isPaused(T)).isFalse();
        assertThat(log.all().get(0).status()).as("still catching up").isEqualTo(RecoveryStatus.RECOVERING);
        CheckpointCoordinator running = coordinators.coordinator(T).orElseThrow();
        heartbeat(STANDBY, Map.of(COUNT1, 480L), Map.of(COUNT1, new RecoveryCatchUp(12_000, 300, 4_000)));
        orchestrator.checkProgress();
        assertThat(log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERED);
        assertThat(coordinators.coordinator(T)).as("caught up late: the running coordinator stays")
                .containsSame(running);
    }

    @Test
    void fallsBackToAGlobalRecoveryWhenNoCheckpointOfTheEpochCompleted() {
        deploy("");

        orchestrator.recover(killC());

        Recovery recovery = log.all().get(0);
        assertThat(recovery.mode()).isEqualTo(RecoveryMode.GLOBAL);
        assertThat(recovery.local().fallbackReason()).contains("no checkpoint of epoch 0");
        assertThat(hostClient.recoveries).isEmpty();
        assertThat(hostClient.deployments).as("redeployed on the hosts that ran tasks, the standby kept free")
                .containsExactlyInAnyOrder("t@host-a:1:-", "t@host-b:1:-");
    }

    @Test
    void fallsBackToAGlobalRecoveryWhenTheTargetHostRefuses() {
        deploy("");
        completeCheckpoint();
        hostClient.failing.add(STANDBY);

        orchestrator.recover(killC());

        Recovery recovery = log.all().get(0);
        assertThat(recovery.mode()).isEqualTo(RecoveryMode.GLOBAL);
        assertThat(recovery.local().fallbackReason()).contains("host-d");
        assertThat(recovery.epoch()).isEqualTo(1);
        assertThat(hostClient.deployments).containsExactlyInAnyOrder("t@host-a:1:1", "t@host-b:1:1");
        assertThat(topologies.find(T).orElseThrow().placement().values()).doesNotContain(C, STANDBY);
    }

    @Test
    void recoversTasksLostOnTwoHostsAtOnceLocallyWhenNoneFeedsAnother() {
        deploy("");
        completeCheckpoint();
        for (int i = 0; i < 2; i++) { // hosts B and C fall silent together; A and the standby report
            heartbeat(A, Map.of(SOURCE, 1_000L + i, SINK, 500L + i), Map.of());
            heartbeat(STANDBY, Map.of(), Map.of());
            clock.advance(Duration.ofMillis(450));
        }
        detector.sweep();
        assertThat(detector.failures()).hasSize(2);

        orchestrator.recover(detector.failures().get(0));

        Recovery recovery = log.all().get(0);
        assertThat(recovery.tasks()).containsExactly(COUNT0, COUNT1);
        assertThat(recovery.mode()).as("count#0 and count#1 do not feed each other").isEqualTo(RecoveryMode.LOCAL);
    }

    @Test
    void aRecoveryThatFoundNoLiveHostIsRetriedThoughALaterOneOfAnotherHostsTasksSucceeded() {
        deploy("");
        completeCheckpoint();
        clock.advance(Duration.ofSeconds(1)); // every host falls silent at once: the machine stalled
        detector.sweep();
        orchestrator.recover(failureOf(C));
        Recovery failed = log.latestOf(T).orElseThrow();
        assertThat(failed.failureReason()).isEqualTo("NO_LIVE_HOSTS");
        assertThat(failed.tasks()).containsExactlyInAnyOrder(SOURCE, COUNT0, COUNT1, SINK);

        List<HostId> back = List.of(B, C, STANDBY); // they register again, fenced: their tasks stopped; A does not
        for (HostId host : back) {
            hosts.register(host, URI.create("http://" + host.value()), "tcp://" + host.value() + ":1",
                    clock.instant());
            heartbeat(host, Map.of(), Map.of());
        }
        detector.sweep();
        orchestrator.recover(failureOf(A));
        Recovery ofA = log.latestOf(T).orElseThrow();
        assertThat(ofA.tasks()).containsExactlyInAnyOrder(SOURCE, SINK);
        assertThat(ofA.status()).isEqualTo(RecoveryStatus.RECOVERING);

        clock.advance(RecoveryOrchestrator.RETRY_BACKOFF);
        back.forEach(host -> heartbeat(host, Map.of(), Map.of()));
        detector.sweep();
        orchestrator.retryFailed();

        Recovery retried = log.latestOf(T).orElseThrow();
        assertThat(retried.id()).as("a recovery of the counts, which the one of A's tasks did not cover")
                .isNotEqualTo(ofA.id());
        assertThat(retried.tasks()).contains(COUNT0, COUNT1);
        assertThat(retried.status()).isNotEqualTo(RecoveryStatus.FAILED);

        clock.advance(RecoveryOrchestrator.RETRY_BACKOFF);
        back.forEach(host -> heartbeat(host, Map.of(), Map.of()));
        orchestrator.retryFailed();
        assertThat(log.latestOf(T).orElseThrow().id()).as("made good: not retried again").isEqualTo(retried.id());
    }

    private DetectedFailure failureOf(HostId host) {
        return detector.failures().stream().filter(failure -> failure.host().equals(host)).findFirst()
                .orElseThrow();
    }

    @Test
    void fallsBackToAGlobalRecoveryWhenATaskAndItsReceiverAreLostOnDifferentHostsAtOnce() {
        deploy("");
        completeCheckpoint();
        for (int i = 0; i < 2; i++) { // hosts A (source, sink) and B (count#0) fall silent together
            heartbeat(C, Map.of(COUNT1, 400L + i), Map.of());
            heartbeat(STANDBY, Map.of(), Map.of());
            clock.advance(Duration.ofMillis(450));
        }
        detector.sweep();

        orchestrator.recover(detector.failures().get(0));

        Recovery recovery = log.all().get(0);
        assertThat(recovery.mode()).isEqualTo(RecoveryMode.GLOBAL);
        assertThat(recovery.local().fallbackReason()).contains("t/source#0 on host-a -> t/count#0 on host-b");
        assertThat(hostClient.recoveries).isEmpty();
    }

    @Test
    void aTopologyThatAsksForGlobalRecoveryIsNeverRecoveredLocally() {
        deploy("\"recovery\": {\"mode\": \"GLOBAL\"},");
        completeCheckpoint();

        orchestrator.recover(killC());

        assertThat(hostClient.recoveries).isEmpty();
        assertThat(log.all().get(0).mode()).isEqualTo(RecoveryMode.GLOBAL);
        assertThat(log.all().get(0).local()).isNull();
        assertThat(hostClient.deployments).hasSize(2);
    }

    @Test
    void spreadsTheTasksOfALostHostOverTheLeastLoadedLiveHostsWhenNoStandbyIsLeft() throws Exception {
        deploy("");
        completeCheckpoint();
        topologies.replace(new DeployedTopology(T, topologies.find(T).orElseThrow().spec(),
                topologies.find(T).orElseThrow().plan(), Map.of(SOURCE, A, COUNT0, C, COUNT1, C, SINK, STANDBY),
                clock.instant()));
        orchestrator.close();
        RecoveryOrchestrator withoutStandby = orchestrator(new StandbyHosts(0));

        withoutStandby.recover(killC());

        assertThat(hostClient.recoveries).as("one lost task on each of the two least loaded hosts")
                .containsExactlyInAnyOrder("t@host-b:[t/count#0]:1", "t@host-a:[t/count#1]:1");
    }
}
