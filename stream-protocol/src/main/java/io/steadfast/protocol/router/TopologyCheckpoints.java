package io.steadfast.protocol.router;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A topology's checkpoints, {@code GET /api/v1/topologies/{id}/checkpoints}.
 *
 * @param topology        the topology id
 * @param latestCompleted the latest checkpoint this router completed, or null
 * @param checkpointing   how the topology is checkpointed now, or null if it was cancelled meanwhile
 * @param checkpoints     every checkpoint the store keeps, newest first
 */
public record TopologyCheckpoints(TopologyId topology, @Nullable CheckpointId latestCompleted,
                                  @Nullable Checkpointing checkpointing, List<CheckpointSummary> checkpoints) {

    public TopologyCheckpoints {
        checkpoints = checkpoints == null ? List.of() : List.copyOf(checkpoints);
    }

    /** How many of the listed checkpoints are COMPLETED. */
    public long completedCount() {
        return checkpoints.stream().filter(CheckpointSummary::isCompleted).count();
    }

    /** The COMPLETED checkpoint with the highest id among those listed. */
    public Optional<CheckpointSummary> latestCompletedCheckpoint() {
        return checkpoints.stream().filter(CheckpointSummary::isCompleted)
                .max(Comparator.comparing(CheckpointSummary::checkpointId));
    }

    /**
     * How a topology is checkpointed now.
     *
     * @param state              ACTIVE, SKIPPING (a host is not LIVE or a task FAILED), PAUSED (being recovered) or
     *                           NOT_STARTED (its earlier checkpoint ids could not be read from the store yet)
     * @param reason             why it is not ACTIVE, or null
     * @param intervalMs         milliseconds between checkpoints, as in force
     * @param timeoutMs          milliseconds a checkpoint may take, as in force
     * @param maxConcurrent      the most checkpoints pending at once, as in force
     * @param skipped            due checkpoints skipped in this deployment
     * @param unrecordedFailures failed checkpoints the router keeps until the checkpoint store answers again
     */
    public record Checkpointing(String state, @Nullable String reason, long intervalMs, long timeoutMs,
                                int maxConcurrent, long skipped, int unrecordedFailures) {
    }
}
