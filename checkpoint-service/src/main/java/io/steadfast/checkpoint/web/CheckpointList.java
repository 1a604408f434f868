package io.steadfast.checkpoint.web;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointFailure;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.checkpoint.checkpoint.CheckpointStatus;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET /api/v1/checkpoints/{topology}}: the records retention has kept, newest first, and statistics over
 * them (all-time counts are the {@code steadfast.checkpoint.completed/failed} metrics).
 */
record CheckpointList(TopologyId topology, Statistics statistics, List<CheckpointView> checkpoints) {

    /**
     * @param averageDurationMillis over the completed checkpoints listed, null when there is none
     * @param averageSizeBytes over the completed checkpoints listed, null when there is none
     * @param failuresByReason failed checkpoints listed, by reason
     */
    record Statistics(int total, int pending, int completed, int failed, @Nullable CheckpointId latestCompleted,
            @Nullable Long latestCompletedDurationMillis, @Nullable Long latestCompletedSizeBytes,
            @Nullable Long averageDurationMillis, @Nullable Long averageSizeBytes, Map<String, Integer> failuresByReason) {
    }

    static CheckpointList of(TopologyId topology, List<CheckpointRecord> newestFirst) {
        List<CheckpointRecord> completed = newestFirst.stream()
                .filter(record -> record.status() == CheckpointStatus.COMPLETED).toList();
        Map<String, Integer> failures = new TreeMap<>();
        newestFirst.stream().map(CheckpointRecord::failure).filter(failure -> failure != null)
                .map(CheckpointFailure::reason)
                .forEach(reason -> failures.merge(reason.name(), 1, Integer::sum));
        CheckpointRecord latest = completed.isEmpty() ? null : completed.get(0);
        Statistics statistics = new Statistics(newestFirst.size(),
                count(newestFirst, CheckpointStatus.PENDING), completed.size(),
                count(newestFirst, CheckpointStatus.FAILED),
                latest == null ? null : latest.checkpointId(),
                latest == null ? null : latest.durationMillis(),
                latest == null ? null : latest.sizeBytes(),
                round(completed.stream().mapToLong(record -> record.durationMillis() == null ? 0
                        : record.durationMillis()).average()),
                round(completed.stream().mapToLong(CheckpointRecord::sizeBytes).average()),
                failures);
        return new CheckpointList(topology, statistics, newestFirst.stream().map(CheckpointView::of).toList());
    }

    private static int count(List<CheckpointRecord> records, CheckpointStatus status) {
        return (int) records.stream().filter(record -> record.status() == status).count();
    }

    private static @Nullable Long round(OptionalDouble average) {
        return average.isPresent() ? Math.round(average.getAsDouble()) : null;
    }
}
