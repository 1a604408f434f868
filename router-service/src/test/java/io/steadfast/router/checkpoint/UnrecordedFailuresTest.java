package io.steadfast.router.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnrecordedFailuresTest {

    private static final TopologyId T = TopologyId.of("t");
    private static final TopologyId U = TopologyId.of("u");
    private static final List<TaskId> TASKS = List.of(TaskId.parse("t/source#0"), TaskId.parse("t/sink#0"));

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryCheckpointRecords store = new InMemoryCheckpointRecords(clock);
    private final UnrecordedFailures failures = new UnrecordedFailures(store, clock, 3);

    private static UnrecordedFailures.Failure failure(TopologyId topology, long id) {
        return new UnrecordedFailures.Failure(topology, id, TASKS, Instant.parse("2026-01-01T00:00:00Z"),
                CheckpointFailureReason.STORE_UNAVAILABLE, "checkpoint " + id + " failed");
    }

    private List<String> listed(TopologyId topology) {
        return store.list(topology).stream().map(s -> s.checkpointId() + ":" + s.status() + ":" + s.failureReason())
                .toList();
    }

    @Test
    void recordsAtOnceWhenTheStoreAnswersCreatingTheRecordItDoesNotHave() {
        store.create(T, 1, TASKS, Map.of(), clock.instant());

        failures.record(failure(T, 1));
        failures.record(failure(T, 2));

        assertThat(listed(T)).containsExactly("2:FAILED:STORE_UNAVAILABLE", "1:FAILED:STORE_UNAVAILABLE");
        assertThat(store.list(T).get(0).failureMessage()).isEqualTo("checkpoint 2 failed");
        assertThat(failures.count(T)).isZero();
    }

    @Test
    void keepsTheNewestPerTopologyWhileTheStoreIsDownAndRecordsThemInOrderOnceItIsBack() {
        store.setAvailable(false);
        for (long id = 1; id <= 5; id++) {
            failures.record(failure(T, id));
        }
        failures.record(failure(U, 9));

        assertThat(failures.count(T)).as("the oldest two dropped").isEqualTo(3);
        assertThat(failures.flush()).as("still down").isZero();
        assertThat(failures.count(T)).isEqualTo(3);

        store.setAvailable(true);
        assertThat(failures.flush()).isEqualTo(4);

        assertThat(listed(T)).containsExactly("5:FAILED:STORE_UNAVAILABLE", "4:FAILED:STORE_UNAVAILABLE",
                "3:FAILED:STORE_UNAVAILABLE");
        assertThat(listed(U)).containsExactly("9:FAILED:STORE_UNAVAILABLE");
        assertThat(store.list(T).get(0).failureMessage()).startsWith("checkpoint 5 failed (recorded at ")
                .endsWith("once the checkpoint store answered again)");
        assertThat(failures.count(T)).isZero();
        assertThat(failures.flush()).as("nothing left").isZero();
    }

    @Test
    void aFailureOfATopologyWithFailuresWaitingQueuesBehindThemEvenIfTheStoreIsBack() {
        store.setAvailable(false);
        failures.record(failure(T, 1));
        store.setAvailable(true);

        failures.record(failure(T, 2));

        assertThat(failures.count(T)).isEqualTo(2);
        assertThat(store.list(T)).isEmpty();
        failures.flush();
        assertThat(listed(T)).containsExactly("2:FAILED:STORE_UNAVAILABLE", "1:FAILED:STORE_UNAVAILABLE");
    }

    @Test
    void dropsAFailureTheStoreRefusesAndForgetsACancelledTopology() {
        store.create(T, 1, TASKS, Map.of(), clock.instant());
        TASKS.forEach(task -> store.acknowledge(T, 1, new TaskAck(task, null, 0, 1, 0, 0)));
        store.complete(T, 1);
        store.setAvailable(false);
        failures.record(failure(T, 1));
        failures.record(failure(U, 2));
        failures.forget(U);

        store.setAvailable(true);
        failures.flush();

        assertThat(listed(T)).as("a COMPLETED checkpoint stays COMPLETED").containsExactly("1:COMPLETED:null");
        assertThat(failures.count(T)).isZero();
        assertThat(store.list(U)).isEmpty();
    }
}
