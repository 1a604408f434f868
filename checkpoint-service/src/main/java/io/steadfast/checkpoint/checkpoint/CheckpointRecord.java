package io.steadfast.checkpoint.checkpoint;

import io.steadfast.checkpoint.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of a topology: which tasks must acknowledge it, which did, and how it ended.
 *
 * @param sizeBytes the sum of the acknowledged snapshots' sizes (of the stored snapshots once completed)
 * @param completedAt when it completed or failed
 * @param durationMillis from trigger to completion or failure
 * @param expectedIncarnations the incarnation of each expected task whose snapshot it takes, where not 0: the copy of
 *                             the task that ran when it was triggered; snapshots of other copies are refused
 */
public record CheckpointRecord(
        TopologyId topology,
        CheckpointId checkpointId,
        CheckpointStatus status,
        Instant triggeredAt,
        @Nullable Instant completedAt,
        @Nullable Long durationMillis,
        long sizeBytes,
        List<TaskId> expectedTasks,
        Map<TaskId, Integer> expectedIncarnations,
        List<TaskAck> acks,
        @Nullable CheckpointFailure failure) {

    public CheckpointRecord {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(checkpointId, "checkpointId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(triggeredAt, "triggeredAt");
        expectedTasks = List.copyOf(expectedTasks);
        Map<TaskId, Integer> notFirst = new TreeMap<>(expectedIncarnations);
        notFirst.values().removeIf(incarnation -> incarnation == 0);
        expectedIncarnations = Collections.unmodifiableMap(notFirst);
        acks = List.copyOf(acks);
    }

    /** A new checkpoint waiting for its tasks, each of the incarnation given (0 where none is). */
    public static CheckpointRecord pending(TopologyId topology, CheckpointId checkpointId, List<TaskId> expectedTasks,
            Map<TaskId, Integer> expectedIncarnations, Instant triggeredAt) {
        return new CheckpointRecord(topology, checkpointId, CheckpointStatus.PENDING, triggeredAt, null, null, 0,
                expectedTasks, expectedIncarnations, List.of(), null);
    }

    /** The incarnation of {@code task} whose snapshot this checkpoint takes: 0 unless the record names another. */
    public int expectedIncarnationOf(TaskId task) {
        return expectedIncarnations.getOrDefault(task, 0);
    }

    /** Expected tasks that have not acknowledged yet, in expected order. */
    public List<TaskId> missingAcks() {
        Set<TaskId> acked = acks.stream().map(TaskAck::task).collect(Collectors.toSet());
        return expectedTasks.stream().filter(task -> !acked.contains(task)).toList();
    }
}
