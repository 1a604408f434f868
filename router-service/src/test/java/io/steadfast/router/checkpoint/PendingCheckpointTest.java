package io.steadfast.router.checkpoint;

import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.A;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.B;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.COUNT;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.SINK;
import static io.steadfast.router.checkpoint.CheckpointCoordinatorTest.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.TaskId;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingCheckpointTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final PendingCheckpoint pending = new PendingCheckpoint(3, T0, T0.plusSeconds(10),
            Map.of(SOURCE, A, COUNT, B, SINK, B), 0);

    @Test
    void isFullyAcknowledgedOnlyOnceEveryExpectedTaskAckedOnce() {
        assertThat(pending.acknowledge(new TaskAck(SOURCE, A, 1, 0, 0))).isTrue();
        assertThat(pending.acknowledge(new TaskAck(SOURCE, A, 1, 0, 0))).as("a duplicate").isFalse();
        assertThat(pending.acknowledge(new TaskAck(TaskId.parse("t/other#0"), A, 1, 0, 0))).as("a stranger").isFalse();
        assertThat(pending.isFullyAcknowledged()).isFalse();
        assertThat(pending.missing()).containsOnlyKeys(COUNT, SINK);

        pending.acknowledge(new TaskAck(SINK, B, 1, 0, 0));
        pending.acknowledge(new TaskAck(COUNT, B, 1, 0, 0));

        assertThat(pending.isFullyAcknowledged()).isTrue();
        assertThat(pending.missing()).isEmpty();
        assertThat(pending.acks()).extracting(TaskAck::task).containsExactly(SOURCE, SINK, COUNT);
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
        assertThatThrownBy(() -> new PendingCheckpoint(1, T0, T0, Map.of(), 0))
                .hasMessageContaining("no task");
    }
}
