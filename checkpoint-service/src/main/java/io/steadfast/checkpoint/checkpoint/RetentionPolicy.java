package io.steadfast.checkpoint.checkpoint;

import io.steadfast.runtime.plan.CheckpointId;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which checkpoints of a topology to keep: the newest {@code completedToKeep} COMPLETED ones, and everything newer
 * than the newest completed one (checkpoints still in flight). Everything else, with its snapshots, can go.
 */
public record RetentionPolicy(int completedToKeep) {

    public RetentionPolicy {
        if (completedToKeep < 1) {
            throw new IllegalArgumentException("steadfast.checkpoint.retention.completed must be >= 1, was "
                    + completedToKeep);
        }
    }

    /**
     * What to delete: every checkpoint older than {@code before} except {@code keep}.
     */
    public record Cut(CheckpointId before, Set<CheckpointId> keep) {
    }

    /** The cut for the records of one topology, or empty when none has completed. */
    public Optional<Cut> cut(List<CheckpointRecord> records) {
        List<CheckpointId> completed = records.stream()
                .filter(record -> record.status() == CheckpointStatus.COMPLETED)
                .map(CheckpointRecord::checkpointId)
                .sorted(Comparator.reverseOrder())
                .toList();
        if (completed.isEmpty()) {
            return Optional.empty();
        }
        Set<CheckpointId> keep = completed.stream().limit(completedToKeep).collect(Collectors.toSet());
        return Optional.of(new Cut(completed.get(0), keep));
    }
}
