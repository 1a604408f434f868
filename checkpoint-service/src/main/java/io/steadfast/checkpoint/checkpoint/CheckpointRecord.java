package io.steadfast.checkpoint.checkpoint;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of a topology: which tasks must acknowledge it, which did, and how it ended.
 *
 * @param sizeBytes the sum of the acknowledged snapshots' sizes (of the stored snapshots once completed)
 */
public record CheckpointRecord(
        TopologyId topology,
        CheckpointId checkpointId,
        CheckpointStatus status,
        CheckpointTiming timing,
        long sizeBytes,
        ExpectedTasks expected,
        List<TaskAck> acks,
        @Nullable CheckpointFailure failure) {

    public CheckpointRecord {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(checkpointId, "checkpointId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(expected, "expected");
        acks = List.copyOf(acks);
    }

    /** A new checkpoint waiting for its tasks, each of the incarnation given (0 where none is). */
    public static CheckpointRecord pending(TopologyId topology, CheckpointId checkpointId, List<TaskId> expectedTasks,
            Map<TaskId, Integer> expectedIncarnations, Instant triggeredAt) {
        return new CheckpointRecord(topology, checkpointId, CheckpointStatus.PENDING,
                CheckpointTiming.pending(triggeredAt), 0, new ExpectedTasks(expectedTasks, expectedIncarnations),
                List.of(), null);
    }

    public Instant triggeredAt() {
        return timing.triggeredAt();
    }

    /** When it completed or failed; null while pending. */
    public @Nullable Instant completedAt() {
        return timing.completedAt();
    }

    /** From trigger to completion or failure; null while pending. */
    public @Nullable Long durationMillis() {
        return timing.durationMillis();
    }

    public List<TaskId> expectedTasks() {
        return expected.tasks();
    }

    /** The expected incarnation of each task where it is not 0 (see {@link ExpectedTasks}). */
    public Map<TaskId, Integer> expectedIncarnations() {
        return expected.incarnations();
    }

    /** The incarnation of {@code task} whose snapshot this checkpoint takes: 0 unless the record names another. */
    public int expectedIncarnationOf(TaskId task) {
        return expected.incarnationOf(task);
    }

    /** Expected tasks that have not acknowledged yet, in expected order. */
    public List<TaskId> missingAcks() {
        Set<TaskId> acked = acks.stream().map(TaskAck::task).collect(Collectors.toSet());
        return expectedTasks().stream().filter(task -> !acked.contains(task)).toList();
    }
}
