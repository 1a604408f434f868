package io.steadfast.router.checkpoint;

import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.A;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.B;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.COUNT;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.SINK;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingCheckpointTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** The count task runs as its incarnation 2 (recovered twice); the others as their first. */
    private final PendingCheckpoint pending = new PendingCheckpoint(3, T0, T0.plusSeconds(10),
            Map.of(SOURCE, A, COUNT, B, SINK, B), Map.of(COUNT, 2), 0);

    private static TaskAck ack(TaskId task, HostId host, int incarnation) {
        return new TaskAck(task, host, incarnation, 1, 0, 0);
    }

    @Test
    void isFullyAcknowledgedOnlyOnceEveryExpectedTaskAckedOnce() {
        assertThat(pending.acknowledge(ack(SOURCE, A, 0))).isTrue();
        assertThat(pending.acknowledge(ack(SOURCE, A, 0))).as("a duplicate").isFalse();
        assertThat(pending.acknowledge(ack(TaskId.parse("t/other#0"), A, 0))).as("a stranger").isFalse();
        assertThat(pending.isFullyAcknowledged()).isFalse();
        assertThat(pending.missing()).containsOnlyKeys(COUNT, SINK);

        pending.acknowledge(ack(SINK, B, 0));
        pending.acknowledge(ack(COUNT, B, 2));

        assertThat(pending.isFullyAcknowledged()).isTrue();
        assertThat(pending.missing()).isEmpty();
        assertThat(pending.acks()).extracting(TaskAck::task).containsExactly(SOURCE, SINK, COUNT);
    }

    @Test
    void refusesTheAckOfAnotherCopyOfATaskThanTheOneThatRanWhenItWasTriggered() {
        assertThat(pending.acknowledge(ack(COUNT, B, 1))).as("a superseded copy, on the same host").isFalse();
        assertThat(pending.acknowledge(ack(COUNT, B, 3))).as("a copy recovered after the trigger").isFalse();
        assertThat(pending.acknowledge(ack(COUNT, A, 2))).as("another host").isFalse();
        assertThat(pending.acknowledge(ack(SINK, B, 1))).as("a first copy acks as incarnation 0").isFalse();
        assertThat(pending.missing()).containsOnlyKeys(SOURCE, COUNT, SINK);

        assertThat(pending.acknowledge(ack(COUNT, B, 2))).isTrue();
        assertThat(pending.missing()).containsOnlyKeys(SOURCE, SINK);
    }

    @Test
    void expiresAtItsDeadlineAndDescribesWhatIsMissing() {
        assertThat(pending.isExpired(T0.plusMillis(9_999))).isFalse();
        assertThat(pending.isExpired(T0.plusSeconds(10))).isTrue();
        assertThat(pending.describeMissing())
                .isEqualTo("task 't/count#0' on host-b, task 't/sink#0' on host-b, task 't/source#0' on host-a");
    }

    @Test
    void refusesACheckpointWithoutTasks() {
        assertThatThrownBy(() -> new PendingCheckpoint(1, T0, T0, Map.of(), Map.of(), 0))
                .hasMessageContaining("no task");
    }
}
