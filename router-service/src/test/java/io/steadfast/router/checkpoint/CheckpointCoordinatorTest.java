package io.steadfast.router.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointSummary;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class CheckpointCoordinatorTest {

    static final String SPEC = """
            {"id": "t", "operators": [
              {"id": "source", "type": "generator", "config": {"count": 10}},
              {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
            ]}""";
    static final TaskId SOURCE = TaskId.parse("t/source#0");
    static final TaskId COUNT = TaskId.parse("t/count#0");
    static final TaskId SINK = TaskId.parse("t/sink#0");
    static final HostId A = new HostId("host-a");
    static final HostId B = new HostId("host-b");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);
    private final List<String> triggers = new CopyOnWriteArrayList<>();
    private final UnrecordedFailures failures = new UnrecordedFailures(records, clock, 100);
    private final CheckpointCoordinator coordinator = new CheckpointCoordinator(topology(), 1, () -> 0L,
            new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1), null,
            new CoordinatorContext(records, failures, (host, topology, id) -> triggers.add(host + ":" + id), clock));

    static DeployedTopology topology() {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
        return new DeployedTopology(plan.topology(), JsonMapper.builder().build().readTree(SPEC), plan,
                Map.of(SOURCE, A, COUNT, B, SINK, B), Instant.EPOCH);
    }

    private static TaskAck ack(TaskId task, HostId host) {
        return new TaskAck(task, host, 0, 10, 1, 2);
    }

    private CheckpointSummary stats(long id) {
        return records.list(topology().id()).stream().filter(s -> s.checkpointId().value() == id).findFirst()
                .orElseThrow();
    }

    @Test
    void triggersTheSourceHostsWhenDueAndCompletesWhenEveryTaskAcked() {
        coordinator.tick(false);
        assertThat(triggers).as("not due before one interval").isEmpty();

        clock.advance(Duration.ofSeconds(1));
        coordinator.tick(false);
        assertThat(triggers).containsExactly("host-a:1");
        assertThat(stats(1).status()).isEqualTo("PENDING");

        coordinator.acknowledge(1, ack(SOURCE, A));
        coordinator.acknowledge(1, ack(COUNT, B));
        assertThat(stats(1).status()).isEqualTo("PENDING");
        clock.advance(Duration.ofMillis(40));
        coordinator.acknowledge(1, ack(SINK, B));

        assertThat(stats(1).status()).isEqualTo("COMPLETED");
        assertThat(stats(1).durationMillis()).isEqualTo(40);
        assertThat(stats(1).sizeBytes()).isEqualTo(30);
        assertThat(coordinator.lastCompleted()).hasValueSatisfying(done -> assertThat(done.checkpointId()).isEqualTo(1));
        assertThat(coordinator.pendingCount()).isZero();
    }

    @Test
    void countsEachCheckpointOnceByOutcomeAndTimesAndSizesTheCompletedOnesOnThePrometheusScrape() {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CheckpointCoordinator metered = new CheckpointCoordinator(topology(), 1, () -> 0L,
                new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1), null,
                new CoordinatorContext(records, failures, (host, topology, id) -> { }, CheckpointCompletions.NONE,
                        Runnable::run, clock, new CheckpointMeters(meters)));
        clock.advance(Duration.ofSeconds(1));
        metered.tick(false);
        metered.acknowledge(1, ack(SOURCE, A));
        metered.acknowledge(1, ack(COUNT, B));
        clock.advance(Duration.ofMillis(40));
        metered.acknowledge(1, ack(SINK, B));
        metered.acknowledge(1, ack(SINK, B));
        clock.advance(Duration.ofSeconds(1));
        metered.tick(false);
        metered.decline(2, COUNT, B, 0, "a snapshot failed");
        metered.decline(2, COUNT, B, 0, "a snapshot failed");
        clock.advance(Duration.ofSeconds(1));
        metered.tick(false);
        clock.advance(Duration.ofSeconds(11));
        metered.tick(false);

        assertThat(meters.scrape())
                .contains("steadfast_checkpoints_total{outcome=\"COMPLETED\",reason=\"none\"} 1.0")
                .contains("steadfast_checkpoints_total{outcome=\"FAILED\",reason=\"TASK_FAILED\"} 1.0")
                .contains("steadfast_checkpoints_total{outcome=\"FAILED\",reason=\"TIMEOUT\"} 1.0")
                .contains("steadfast_checkpoints_total{outcome=\"FAILED\",reason=\"CANCELLED\"} 0.0")
                .contains("steadfast_checkpoint_duration_seconds_count 1")
                .contains("steadfast_checkpoint_duration_seconds_sum 0.04")
                .contains("steadfast_checkpoint_duration_seconds_bucket{le=\"0.039146836\"} 0")
                .contains("steadfast_checkpoint_duration_seconds_bucket{le=\"0.050331646\"} 1")
                .contains("steadfast_checkpoint_size_bytes_count 1")
                .contains("steadfast_checkpoint_size_bytes_sum 30.0");
    }

    @Test
    void takesTheAcksOfTheIncarnationsThatRanWhenItTriggeredAndRecordsThemWithTheCheckpoint() {
        DeployedTopology recovered = topology().recovered(topology().plan(), Map.of(SOURCE, A, COUNT, A, SINK, B),
                List.of(COUNT));
        CheckpointCoordinator afterRecovery = new CheckpointCoordinator(recovered, 1, () -> 0L,
                new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1), null,
                new CoordinatorContext(records, failures, (host, topology, id) -> triggers.add(host + ":" + id), clock));
        clock.advance(Duration.ofSeconds(1));
        afterRecovery.tick(false);
        assertThat(records.expectedIncarnations(recovered.id(), 1)).containsExactly(Map.entry(COUNT, 1));

        afterRecovery.acknowledge(1, ack(SOURCE, A));
        afterRecovery.acknowledge(1, ack(SINK, B));
        afterRecovery.acknowledge(1, ack(COUNT, A));
        assertThat(stats(1).status()).as("the ack of the copy it replaced").isEqualTo("PENDING");

        afterRecovery.acknowledge(1, new TaskAck(COUNT, A, 1, 10, 1, 2));
        assertThat(stats(1).status()).isEqualTo("COMPLETED");
    }

    @Test
    void aRecoveryStopsTheCoordinatorWithoutWaitingForTheStoreAndACompletionRecordedAfterwardsIsNotAnnounced()
            throws Exception {
        CountDownLatch storeAnswers = new CountDownLatch(1);
        List<String> announced = new CopyOnWriteArrayList<>();
        InMemoryCheckpointRecords memory = new InMemoryCheckpointRecords(clock);
        CheckpointRecords slowStore = new CheckpointRecords() {
            @Override
            public void create(TopologyId topology, long checkpointId, List<TaskId> tasks,
                               Map<TaskId, Integer> incarnations, Instant triggeredAt) {
                memory.create(topology, checkpointId, tasks, incarnations, triggeredAt);
            }

            @Override
            public void acknowledge(TopologyId topology, long checkpointId, TaskAck ack) {
                memory.acknowledge(topology, checkpointId, ack);
            }

            @Override
            public void complete(TopologyId topology, long checkpointId) {
                try {
                    storeAnswers.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                memory.complete(topology, checkpointId);
            }

            @Override
            public void fail(TopologyId topology, long checkpointId, CheckpointFailureReason reason, String message,
                             List<TaskAck> acks) {
                memory.fail(topology, checkpointId, reason, message, acks);
            }

            @Override
            public List<CheckpointSummary> list(TopologyId topology) {
                return memory.list(topology);
            }

            @Override
            public Optional<CheckpointDetail> find(TopologyId topology, long checkpointId) {
                return memory.find(topology, checkpointId);
            }

            @Override
            public OptionalLong latestCompleted(TopologyId topology) {
                return memory.latestCompleted(topology);
            }

            @Override
            public void delete(TopologyId topology) {
                memory.delete(topology);
            }
        };
        CheckpointCoordinator slow = new CheckpointCoordinator(topology(), 1, () -> 0L,
                new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1), null,
                new CoordinatorContext(slowStore, new UnrecordedFailures(slowStore, clock, 100),
                        (host, topology, id) -> { }, (topology, id, hosts) -> announced.add(topology + ":" + id),
                        Runnable::run, clock, CheckpointOutcomes.NONE));
        clock.advance(Duration.ofSeconds(1));
        slow.tick(false);
        slow.acknowledge(1, ack(SOURCE, A));
        slow.acknowledge(1, ack(COUNT, B));
        ExecutorService acks = Executors.newSingleThreadExecutor();
        try {
            Future<?> lastAck = acks.submit(() -> slow.acknowledge(1, ack(SINK, B))); // completes: waits for the store

            assertTimeoutPreemptively(Duration.ofSeconds(5), slow::stop);
            storeAnswers.countDown();
            lastAck.get(5, TimeUnit.SECONDS);
        } finally {
            acks.shutdownNow();
        }

        assertThat(slowStore.list(topology().id()).get(0).status()).isEqualTo("COMPLETED");
        assertThat(announced).as("the hosts keep their logs from the checkpoint before").isEmpty();
        assertThat(slow.lastCompleted()).isEmpty();
    }

    @Test
    void failsWithTimeoutNamingTheTasksAndHostsThatDidNotAck() {
        clock.advance(Duration.ofSeconds(1));
        coordinator.tick(false);
        coordinator.acknowledge(1, ack(SOURCE, A));

        clock.advance(Duration.ofMillis(9_999));
        coordinator.tick(false);
        assertThat(stats(1).status()).isEqualTo("PENDING");
        clock.advance(Duration.ofMillis(1));
        coordinator.tick(false);

        CheckpointSummary failed = stats(1);
        assertThat(failed.status()).isEqualTo("FAILED");
        assertThat(failed.failureReason()).isEqualTo("TIMEOUT");
        assertThat(failed.failureMessage()).contains("Checkpoint 1 of topology 't' expired after PT10S")
                .contains("task 't/count#0' on host-b, task 't/sink#0' on host-b did not acknowledge")
                .contains("steadfast.router.checkpoint.timeout").doesNotContain("source");
        assertThat(coordinator.lastCompleted()).isEmpty();
    }

    @Test
    void skipsADueTriggerWhileTheMaximumIsPendingAndTriggersOnceItCompletes() {
        clock.advance(Duration.ofSeconds(1));
        coordinator.tick(false);
        clock.advance(Duration.ofSeconds(1));
        coordinator.tick(false);
        coordinator.tick(false);

        assertThat(triggers).containsExactly("host-a:1");
        assertThat(coordinator.skippedCount()).isEqualTo(1);
        assertThat(coordinator.triggerNow()).isInstanceOf(TriggerResult.Refused.class);

        List.of(SOURCE, COUNT, SINK).forEach(task -> coordinator.acknowledge(1, ack(task, task == SOURCE ? A : B)));
        coordinator.tick(false);
        assertThat(triggers).containsExactly("host-a:1", "host-a:2");
    }

    @Test
    void aNackFailsTheCheckpointWithTheReasonItGave() {
        clock.advance(Duration.ofSeconds(1));
        coordinator.tick(false);
        // another copy of the task than the one that ran at the trigger: on a host frozen since, or superseded there
        coordinator.decline(1, COUNT, A, 0, "STORE_UNAVAILABLE: from a host the task no longer runs on");
        coordinator.decline(1, COUNT, B, 1, "STORE_UNAVAILABLE: from an incarnation that did not run at the trigger");
        assertThat(stats(1).status()).as("nacks of other copies change nothing").isEqualTo("PENDING");

        coordinator.decline(1, COUNT, B, 0, "STORE_UNAVAILABLE: connection refused");

        assertThat(stats(1).status()).isEqualTo("FAILED");
        assertThat(stats(1).failureReason()).isEqualTo("STORE_UNAVAILABLE");
        assertThat(stats(1).failureMessage()).contains("t/count#0").contains("host-b").contains("connection refused");
        coordinator.acknowledge(1, ack(SINK, B)); // late acks of a failed checkpoint are ignored
        assertThat(stats(1).status()).isEqualTo("FAILED");
    }

    @Test
    void doesNotTriggerOnceTheSourcesFinishedAndStopCancelsWhatIsPendingAndHandsOnTheNextId() {
        clock.advance(Duration.ofSeconds(1));
        coordinator.tick(true);
        assertThat(triggers).isEmpty();

        coordinator.tick(false);
        long next = coordinator.stop();

        assertThat(next).isEqualTo(2);
        assertThat(failures.count(topology().id())).as("a stopping coordinator does not wait for the store")
                .isEqualTo(1);
        failures.flush();
        assertThat(stats(1).failureReason()).isEqualTo("CANCELLED");
        clock.advance(Duration.ofSeconds(5));
        coordinator.tick(false);
        assertThat(triggers).containsExactly("host-a:1");
    }
}
