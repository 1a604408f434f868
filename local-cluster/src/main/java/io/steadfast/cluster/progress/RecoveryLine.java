package io.steadfast.cluster.progress;

import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Describes one recovery in a line: failed host, its tasks, and the detection, restore and catch-up times. */
public final class RecoveryLine {

    private static final int SHOWN_TASKS = 6;

    private RecoveryLine() {
    }

    /**
     * e.g. {@code GLOBAL recovery 1 of word-count RECOVERED: host-2 failed (3 tasks: count#1, ...); detected after
     * 812 ms, restored from checkpoint 7 in 640 ms, caught up after 2,310 ms}, with the records replayed and whether
     * the other tasks kept running when the router says.
     */
    public static String format(RecoveryView recovery) {
        RecoveryView.Restoration restoration = recovery.restoration();
        RecoveryView.Timings timings = recovery.timings();
        RecoveryView.Outcome outcome = recovery.outcome();
        StringBuilder line = new StringBuilder();
        line.append(restoration.mode()).append(" recovery ").append(recovery.id()).append(" of ")
                .append(recovery.topology()).append(' ').append(outcome.status()).append(": ")
                .append(recovery.detection().failedHost()).append(" failed (")
                .append(recovery.tasks().size()).append(recovery.tasks().size() == 1 ? " task" : " tasks");
        if (!recovery.tasks().isEmpty()) {
            List<TaskId> shown = recovery.tasks().subList(0, Math.min(SHOWN_TASKS, recovery.tasks().size()));
            line.append(": ").append(shown.stream().map(TaskId::toString).collect(Collectors.joining(", ")));
            if (recovery.tasks().size() > SHOWN_TASKS) {
                line.append(", ...");
            }
        }
        line.append("); detected after ").append(millis(recovery.detection().detectionMillis()));
        if (timings.restoreMillis() != null) {
            line.append(", restored from ")
                    .append(restoration.restoredFrom() == null ? "scratch (no completed checkpoint)"
                            : "checkpoint " + restoration.restoredFrom())
                    .append(" in ").append(millis(timings.restoreMillis()));
        }
        if (timings.catchUpMillis() != null) {
            line.append(", caught up after ").append(millis(timings.catchUpMillis()));
        }
        if (recovery.local() != null && recovery.local().replayedRecords() != null) {
            line.append(String.format(Locale.ROOT, ", %,d records replayed", recovery.local().replayedRecords()));
        }
        if (Boolean.FALSE.equals(restoration.otherTasksPaused())) {
            line.append("; every other task kept running");
        }
        if (recovery.local() != null && recovery.local().fallbackReason() != null) {
            line.append("; recovered globally: ").append(recovery.local().fallbackReason());
        }
        if (recovery.isFailed() || recovery.isAbandoned()) {
            line.append(recovery.isFailed() ? "; failed: " : "; abandoned: ").append(outcome.failureReason())
                    .append(" - ").append(outcome.message());
        }
        return line.toString();
    }

    private static String millis(long millis) {
        return String.format(Locale.ROOT, "%,d ms", millis);
    }
}
