package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One {@link TaskLoad} for every task of a plan, no more and no less: a model fed loads that miss a task would
 * silently leave it out of every path and every recovery. Immutable.
 */
public final class TaskLoads {

    private static final int NAMED = 5;

    private final List<TaskLoad> inPlanOrder;
    private final Map<TaskId, TaskLoad> byTask;

    private TaskLoads(List<TaskLoad> inPlanOrder, Map<TaskId, TaskLoad> byTask) {
        this.inPlanOrder = List.copyOf(inPlanOrder);
        this.byTask = Map.copyOf(byTask);
    }

    /**
     * @throws IllegalArgumentException naming the tasks if a load is given twice, names a task that is not in the
     *                                  plan, or if a task of the plan has none
     */
    public static TaskLoads of(ExecutionPlan plan, Collection<TaskLoad> loads) {
        Map<TaskId, TaskLoad> byTask = new HashMap<>();
        for (TaskLoad load : loads) {
            if (plan.task(load.task()).isEmpty()) {
                throw new IllegalArgumentException("a load names task " + load.task() + ", which is not in the plan"
                        + " of topology '" + plan.topology() + "'; give loads for the plan's tasks only");
            }
            if (byTask.put(load.task(), load) != null) {
                throw new IllegalArgumentException("two loads name task " + load.task() + "; give one per task");
            }
        }
        List<TaskId> missing = new ArrayList<>();
        List<TaskLoad> ordered = new ArrayList<>();
        for (TaskSpec task : plan.tasks()) {
            TaskLoad load = byTask.get(task.id());
            if (load == null) {
                missing.add(task.id());
            } else {
                ordered.add(load);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("no load for " + named(missing) + "; give a TaskLoad for every task"
                    + " of the plan of '" + plan.topology() + "' (" + plan.tasks().size() + " tasks)");
        }
        return new TaskLoads(ordered, byTask);
    }

    private static String named(List<TaskId> tasks) {
        String names = tasks.stream().limit(NAMED).map(TaskId::toString).collect(Collectors.joining(", "));
        String more = tasks.size() > NAMED ? " and " + (tasks.size() - NAMED) + " more" : "";
        return (tasks.size() == 1 ? "task " : "tasks ") + names + more;
    }

    /** @throws IllegalArgumentException if the task is not in the plan */
    public TaskLoad of(TaskId task) {
        TaskLoad load = byTask.get(task);
        if (load == null) {
            throw new IllegalArgumentException("task " + task + " is not in the plan these loads were given for");
        }
        return load;
    }

    /** The loads in plan order. */
    public List<TaskLoad> all() {
        return inPlanOrder;
    }
}
