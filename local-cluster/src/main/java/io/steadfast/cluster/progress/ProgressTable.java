package io.steadfast.cluster.progress;

import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.OperatorRate;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Formats a topology's progress as a compact text table: one row per operator, then the task statuses. */
public final class ProgressTable {

    private static final String ROW = "  %-16s %12s %14s %14s%n";

    private ProgressTable() {
    }

    public static String format(TopologyDetail view, Duration elapsed) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "[%4ds] topology %s  %s%n", elapsed.toSeconds(), view.id(), view.status()));
        out.append(String.format(Locale.ROOT, ROW, "operator", "events/s", "records in", "records out"));
        for (OperatorRate operator : view.operators()) {
            out.append(String.format(Locale.ROOT, ROW, operator.operator(),
                    String.format(Locale.ROOT, "%,.0f", operator.eventsPerSecond()),
                    String.format(Locale.ROOT, "%,d", operator.recordsIn()),
                    String.format(Locale.ROOT, "%,d", operator.recordsOut())));
        }
        out.append("  tasks ").append(view.tasks().size()).append(": ").append(statusCounts(view)).append(System.lineSeparator());
        for (TaskState task : view.tasks()) {
            if (task.isFailed()) {
                out.append("  FAILED ").append(task.task()).append(" on ").append(task.host()).append(System.lineSeparator());
            }
        }
        return out.toString();
    }

    /** e.g. {@code FINISHED 2, RUNNING 4}, statuses in alphabetical order. */
    static String statusCounts(TopologyDetail view) {
        if (view.tasks().isEmpty()) {
            return "none yet";
        }
        Map<String, Long> counts = view.tasks().stream()
                .collect(Collectors.groupingBy(TaskState::status, TreeMap::new, Collectors.counting()));
        return counts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }
}
