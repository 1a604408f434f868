package io.steadfast.cluster.client;

import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** A deployed topology with its task and operator statistics, from {@code GET /api/v1/topologies/{id}}. */
public record TopologyView(TopologyId id, String status, JsonNode spec, List<TaskView> tasks,
        List<OperatorView> operators) {

    public TopologyView {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        operators = operators == null ? List.of() : List.copyOf(operators);
    }

    /** True when there is at least one task and every task is FINISHED. */
    public boolean allTasksFinished() {
        return !tasks.isEmpty() && tasks.stream().allMatch(TaskView::isFinished);
    }

    public boolean anyTaskFailed() {
        return tasks.stream().anyMatch(TaskView::isFailed);
    }
}
