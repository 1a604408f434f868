package io.steadfast.protocol.store;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The checkpoint-service's answer to {@code GET /api/v1/checkpoints/{topology}}: the records its retention has kept,
 * newest first, and statistics over them (the all-time counts are its {@code steadfast.checkpoint.completed/failed}
 * metrics).
 */
public record CheckpointRecordList(TopologyId topology, Statistics statistics,
                                   List<CheckpointRecordView> checkpoints) {

    /**
     * Statistics over the records listed. Its groups are members of the object itself: {@code total, pending,
     * completed, failed, latestCompleted, latestCompletedDurationMillis, latestCompletedSizeBytes,
     * averageDurationMillis, averageSizeBytes, failuresByReason}.
     *
     * @param failuresByReason failed checkpoints listed, by reason
     */
    public record Statistics(@JsonUnwrapped Counts counts, @JsonUnwrapped Latest latest,
                             @JsonUnwrapped Averages averages, Map<String, Integer> failuresByReason) {
    }

    /** How many checkpoints are listed, in all and by status. */
    public record Counts(int total, int pending, int completed, int failed) {
    }

    /**
     * The latest completed checkpoint listed; every member null when none is.
     *
     * @param latestCompleted               its id
     * @param latestCompletedDurationMillis from its trigger to its completion
     * @param latestCompletedSizeBytes      the size of its snapshots
     */
    public record Latest(@Nullable CheckpointId latestCompleted, @Nullable Long latestCompletedDurationMillis,
                         @Nullable Long latestCompletedSizeBytes) {
    }

    /**
     * Averages over the completed checkpoints listed, rounded; null when none is.
     *
     * @param averageDurationMillis from trigger to completion
     * @param averageSizeBytes      the size of their snapshots
     */
    public record Averages(@Nullable Long averageDurationMillis, @Nullable Long averageSizeBytes) {
    }
}
