package io.steadfast.cluster.client;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A topology's checkpoints, from {@code GET /api/v1/topologies/{id}/checkpoints}.
 *
 * @param latestCompleted the latest checkpoint the router completed, or null
 * @param checkpoints the checkpoints the store keeps (the router sends them newest first)
 */
public record CheckpointsView(String topology, @Nullable Long latestCompleted, List<CheckpointView> checkpoints) {

    public CheckpointsView {
        checkpoints = checkpoints == null ? List.of() : List.copyOf(checkpoints);
    }

    /** How many of the listed checkpoints are COMPLETED. */
    public long completedCount() {
        return checkpoints.stream().filter(CheckpointView::isCompleted).count();
    }

    /** The COMPLETED checkpoint with the highest id among those listed. */
    public Optional<CheckpointView> latestCompletedCheckpoint() {
        return checkpoints.stream().filter(CheckpointView::isCompleted)
                .max(Comparator.comparingLong(CheckpointView::checkpointId));
    }
}
