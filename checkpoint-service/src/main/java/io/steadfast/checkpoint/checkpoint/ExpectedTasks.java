package io.steadfast.checkpoint.checkpoint;

import io.steadfast.runtime.plan.TaskId;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tasks that must acknowledge a checkpoint, and which copy of each.
 *
 * @param tasks in the order the coordinator gave them
 * @param incarnations the incarnation of each task whose snapshot the checkpoint takes, where not 0: the copy of the
 *                     task that ran when it was triggered; snapshots of other copies are refused. Entries of 0 are
 *                     dropped.
 */
public record ExpectedTasks(List<TaskId> tasks, Map<TaskId, Integer> incarnations) {

    public ExpectedTasks {
        tasks = List.copyOf(tasks);
        Map<TaskId, Integer> notFirst = new TreeMap<>(incarnations);
        notFirst.values().removeIf(incarnation -> incarnation == 0);
        incarnations = Collections.unmodifiableMap(notFirst);
    }

    /** The incarnation of {@code task} whose snapshot the checkpoint takes: 0 unless another is named. */
    public int incarnationOf(TaskId task) {
        return incarnations.getOrDefault(task, 0);
    }
}
