package io.steadfast.router.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.MutableClock;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);
    private final List<String> triggers = new CopyOnWriteArrayList<>();
    private final UnrecordedFailures failures = new UnrecordedFailures(records, clock, 100);
    private final CheckpointCoordinator coordinator = new CheckpointCoordinator(topology(), 1, records, failures,
            (host, topology, id) -> triggers.add(host + ":" + id), () -> 0L, clock,
            new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1), null);

    static DeployedTopology topology() {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
        return new DeployedTopology(plan.topology(), JsonMapper.builder().build().readTree(SPEC), plan,
                Map.of(SOURCE, A, COUNT, B, SINK, B), Instant.EPOCH);
    }

    private static TaskAck ack(TaskId task, HostId host) {
        return new TaskAck(task, host, 10, 1, 2);
    }

    private CheckpointStats stats(long id) {
        return records.list(topology().id()).stream().filter(s -> s.checkpointId() == id).findFirst().orElseThrow();
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
    void failsWithTimeoutNamingTheTasksAndHostsThatDidNotAck() {
        clock.advance(Duration.ofSeconds(1));
        coordinator.tick(false);
        coordinator.acknowledge(1, ack(SOURCE, A));

        clock.advance(Duration.ofMillis(9_999));
        coordinator.tick(false);
        assertThat(stats(1).status()).isEqualTo("PENDING");
        clock.advance(Duration.ofMillis(1));
        coordinator.tick(false);

        CheckpointStats failed = stats(1);
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

        coordinator.decline(1, COUNT, B, "STORE_UNAVAILABLE: connection refused");

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
