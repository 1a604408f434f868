package io.steadfast.cluster.progress;

import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.router.TopologyCheckpoints;
import java.util.Locale;

/** Formats a topology's latest completed checkpoint as one progress line, with counts of the others kept. */
public final class CheckpointLine {

    private CheckpointLine() {
    }

    /** e.g. {@code checkpoint 12 COMPLETED in 85 ms, 1.2 MiB (kept: 3 completed, 1 failed, 1 pending)}. */
    public static String format(TopologyCheckpoints view) {
        long failed = view.checkpoints().stream().filter(CheckpointSummary::isFailed).count();
        long pending = view.checkpoints().size() - view.completedCount() - failed;
        String counts = String.format(Locale.ROOT, "(kept: %d completed, %d failed, %d pending)",
                view.completedCount(), failed, pending);
        String latest = view.latestCompletedCheckpoint()
                .map(c -> String.format(Locale.ROOT, "checkpoint %d COMPLETED in %s, %s", c.checkpointId().value(),
                        c.durationMillis() == null ? "? ms" : String.format(Locale.ROOT, "%,d ms", c.durationMillis()),
                        bytes(c.sizeBytes())))
                .orElse("no completed checkpoint yet");
        String lastFailure = view.checkpoints().stream().filter(CheckpointSummary::isFailed).findFirst()
                .map(c -> "; last failed: " + c.checkpointId() + " " + c.failureReason())
                .orElse("");
        return "  " + latest + " " + counts + lastFailure + System.lineSeparator();
    }

    static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }
}
