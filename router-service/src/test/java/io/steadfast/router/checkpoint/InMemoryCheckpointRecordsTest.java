package io.steadfast.router.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointDetail.TaskAckState;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A checkpoint's acks read back from memory as the checkpoint-service answers them: each task, acked or missing. */
class InMemoryCheckpointRecordsTest {

    private static final TopologyId TOPOLOGY = TopologyId.of("w");
    private static final TaskId A = TaskId.parse("w/a#0");
    private static final TaskId B = TaskId.parse("w/b#0");
    private static final HostId HOST = new HostId("host-a");
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private final ManualClock clock = new ManualClock(T0);
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);

    @Test
    void findsAPendingCheckpointWithTheTasksThatAckedWhenAndThoseStillMissing() {
        records.create(TOPOLOGY, 1, List.of(A, B), Map.of(), T0);
        clock.advance(Duration.ofMillis(250));
        records.acknowledge(TOPOLOGY, 1, new TaskAck(B, HOST, 0, 64, 3, 4));

        CheckpointDetail detail = records.find(TOPOLOGY, 1).orElseThrow();

        assertThat(detail.topology()).isEqualTo(TOPOLOGY);
        assertThat(detail.summary().status()).isEqualTo(CheckpointSummary.PENDING);
        assertThat(detail.tasks()).containsExactly(TaskAckState.missing(A),
                TaskAckState.acked(B, T0.plusMillis(250), 64, 3, 4));
        assertThat(detail.missingTasks()).containsExactly(A);
    }

    @Test
    void findsACompletedCheckpointWithEveryTaskAckedAndItsSize() {
        records.create(TOPOLOGY, 2, List.of(A, B), Map.of(), T0);
        clock.advance(Duration.ofMillis(100));
        records.complete(TOPOLOGY, 2, List.of(new TaskAck(A, HOST, 0, 10, 1, 2), new TaskAck(B, HOST, 0, 20, 1, 2)));

        CheckpointDetail detail = records.find(TOPOLOGY, 2).orElseThrow();

        assertThat(detail.summary()).isEqualTo(new CheckpointSummary(CheckpointId.of(2), CheckpointSummary.COMPLETED,
                T0, T0.plusMillis(100), 100L, 30, null, null));
        assertThat(detail.tasks()).extracting(TaskAckState::task, TaskAckState::acked, TaskAckState::sizeBytes)
                .containsExactly(tuple(A, true, 10L),
                        tuple(B, true, 20L));
        assertThat(detail.tasks()).as("memory, like the checkpoint-service, names no host")
                .allSatisfy(task -> assertThat(task.host()).isNull());
        assertThat(detail.missingTasks()).isEmpty();
    }

    @Test
    void findsNothingForAnUnknownCheckpointOrTopologyOrOneDeleted() {
        records.create(TOPOLOGY, 1, List.of(A), Map.of(), T0);

        assertThat(records.find(TOPOLOGY, 2)).isEmpty();
        assertThat(records.find(TopologyId.of("other"), 1)).isEmpty();
        records.delete(TOPOLOGY);
        assertThat(records.find(TOPOLOGY, 1)).isEmpty();
    }

    @Test
    void failsAsUnavailableWhileSwitchedOff() {
        records.setAvailable(false);

        CheckpointRecordsException e = catchThrowableOfType(CheckpointRecordsException.class,
                () -> records.find(TOPOLOGY, 1));

        assertThat(e.isUnavailable()).isTrue();
    }
}
