package io.steadfast.model;

import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The predicted delay of a topology: per task, and end to end with the path that gives it. Computed by
 * {@link LongestPath}.
 *
 * @param tasks every task, upstream first
 * @param endToEndSeconds the slowest source-to-sink delay: the maximum of the sinks' completion delays; empty if a
 *                        task is {@link Stability#UNSTABLE} (then some sink's records queue without bound)
 * @param criticalPath the tasks of the path that gives {@code endToEndSeconds}, source first; empty when it is
 * @param meanEndToEndSeconds the sinks' completion delays averaged with their arrival rates as weights, to hold
 *                            against a measured mean end-to-end latency; empty if any is undefined or no records
 *                            reach a sink
 * @param saturatedTasks the {@link Stability#UNSTABLE} tasks, upstream first; empty if none
 */
public record TopologyDelay(List<TaskTiming> tasks, OptionalDouble endToEndSeconds, List<PathStep> criticalPath,
                            OptionalDouble meanEndToEndSeconds, List<TaskId> saturatedTasks) {

    public TopologyDelay {
        tasks = List.copyOf(tasks);
        Objects.requireNonNull(endToEndSeconds, "endToEndSeconds");
        criticalPath = List.copyOf(criticalPath);
        Objects.requireNonNull(meanEndToEndSeconds, "meanEndToEndSeconds");
        saturatedTasks = List.copyOf(saturatedTasks);
    }

    /** @throws IllegalArgumentException if the task is not in the topology */
    public TaskTiming timing(TaskId task) {
        return tasks.stream().filter(timing -> timing.delay().task().equals(task)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("task " + task + " is not in this topology"));
    }

    /** The queueing result of {@code task}. */
    public TaskDelay delay(TaskId task) {
        return timing(task).delay();
    }

    /** The tasks of the critical path, source first. */
    public List<TaskId> criticalTasks() {
        return criticalPath.stream().map(PathStep::task).toList();
    }
}
