package io.steadfast.host.health;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.task.TaskStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** Health contributor {@code tasks}: DOWN while any task on this host has FAILED, with each failure. */
@Component
public class TasksHealthIndicator implements HealthIndicator {

    private final ProcessingNode node;

    public TasksHealthIndicator(ProcessingNode node) {
        this.node = node;
    }

    @Override
    public Health health() {
        List<TaskReport> reports = node.taskReports();
        Map<String, String> failed = new LinkedHashMap<>();
        for (TaskReport report : reports) {
            if (report.status() == TaskStatus.FAILED) {
                failed.put(report.task(), String.valueOf(report.failure()));
            }
        }
        Health.Builder health = failed.isEmpty() ? Health.up() : Health.down().withDetail("failed", failed);
        return health.withDetail("tasks", reports.size()).build();
    }
}
