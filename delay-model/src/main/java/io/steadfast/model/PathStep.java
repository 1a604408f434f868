package io.steadfast.model;

import io.steadfast.runtime.plan.TaskId;
import java.util.Objects;

/**
 * One task on a critical path, with the terms it adds: the channel into it, then its own sojourn.
 *
 * @param task the task
 * @param channelSeconds the cost of the channel from the previous task of the path; 0 for the first
 * @param sojournSeconds its wait plus its service
 * @param completionSeconds the delay from the path's source to a record leaving this task: the previous step's
 *                          completion + {@code channelSeconds} + {@code sojournSeconds}
 */
public record PathStep(TaskId task, double channelSeconds, double sojournSeconds, double completionSeconds) {

    public PathStep {
        Objects.requireNonNull(task, "task");
    }
}
