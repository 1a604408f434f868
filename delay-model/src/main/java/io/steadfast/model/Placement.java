package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Which host runs each task of a plan: every task placed, and no task that is not in the plan. Immutable. */
public final class Placement {

    private final Map<TaskId, HostId> hostByTask;
    private final Map<HostId, List<TaskId>> tasksByHost;

    private Placement(Map<TaskId, HostId> hostByTask, Map<HostId, List<TaskId>> tasksByHost) {
        this.hostByTask = Map.copyOf(hostByTask);
        this.tasksByHost = tasksByHost;
    }

    /** @throws IllegalArgumentException naming the task if one of the plan is not placed or one placed is not in it */
    public static Placement of(ExecutionPlan plan, Map<TaskId, HostId> hostByTask) {
        for (Map.Entry<TaskId, HostId> entry : hostByTask.entrySet()) {
            if (plan.task(entry.getKey()).isEmpty()) {
                throw new IllegalArgumentException("the placement names task " + entry.getKey() + ", which is not in"
                        + " the plan of topology '" + plan.topology() + "'");
            }
            Objects.requireNonNull(entry.getValue(), "host of " + entry.getKey());
        }
        Map<HostId, List<TaskId>> tasksByHost = new TreeMap<>();
        for (TaskSpec task : plan.tasks()) {
            HostId host = hostByTask.get(task.id());
            if (host == null) {
                throw new IllegalArgumentException("no host for task " + task.id() + " in the placement; place every"
                        + " task of the plan of '" + plan.topology() + "'");
            }
            tasksByHost.computeIfAbsent(host, h -> new ArrayList<>()).add(task.id());
        }
        tasksByHost.replaceAll((host, tasks) -> List.copyOf(tasks));
        return new Placement(hostByTask, Collections.unmodifiableMap(tasksByHost));
    }

    /** @throws IllegalArgumentException if the task is not placed */
    public HostId hostOf(TaskId task) {
        HostId host = hostByTask.get(task);
        if (host == null) {
            throw new IllegalArgumentException("task " + task + " is not in the placement");
        }
        return host;
    }

    /** The tasks on {@code host} in plan order; empty if it runs none. */
    public List<TaskId> tasksOn(HostId host) {
        return tasksByHost.getOrDefault(host, List.of());
    }

    /** The hosts that run a task, ascending. */
    public List<HostId> hosts() {
        return List.copyOf(tasksByHost.keySet());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Placement that && hostByTask.equals(that.hostByTask);
    }

    @Override
    public int hashCode() {
        return hostByTask.hashCode();
    }

    @Override
    public String toString() {
        return "Placement" + tasksByHost;
    }
}
