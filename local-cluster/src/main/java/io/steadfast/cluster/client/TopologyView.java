package io.steadfast.cluster.client;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
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

    /** The hosts the router placed an unfinished task on, sorted: where a fault still hits the job. */
    public List<HostId> hostsRunningUnfinishedTasks() {
        return hostsRunningUnfinishedTasksOf(operator -> true);
    }

    /** The hosts the router placed an unfinished task of an operator that {@code operators} accepts on, sorted. */
    public List<HostId> hostsRunningUnfinishedTasksOf(Predicate<OperatorId> operators) {
        return tasks.stream().filter(task -> !task.isFinished() && operators.test(task.operator()))
                .map(TaskView::host).filter(Objects::nonNull).distinct().sorted().toList();
    }

    /** The hosts the router placed any task on (finished or not), sorted. */
    public List<HostId> hostsOfTasks() {
        return tasks.stream().map(TaskView::host).filter(Objects::nonNull).distinct().sorted().toList();
    }

    /** The ids of the tasks the router placed on {@code host}. */
    public List<String> tasksOn(HostId host) {
        return tasks.stream().filter(task -> host.equals(task.host())).map(TaskView::task).toList();
    }
}
