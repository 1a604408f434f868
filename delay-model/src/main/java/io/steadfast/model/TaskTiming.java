package io.steadfast.model;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A task's place in the topology's delay: its own queueing delay, and the slowest paths to and from it.
 *
 * @param delay the task's queueing result
 * @param completionSeconds the delay from a record's arrival at a source to its leaving this task, along the
 *                          slowest path; empty if a task on some path to it is {@link Stability#UNSTABLE}
 * @param toSinkSeconds the delay from a record's arrival at this task (its own sojourn included) to its leaving a
 *                      sink, along the slowest path downstream; empty if a task on some such path is unstable
 */
public record TaskTiming(TaskDelay delay, OptionalDouble completionSeconds, OptionalDouble toSinkSeconds) {

    public TaskTiming {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(completionSeconds, "completionSeconds");
        Objects.requireNonNull(toSinkSeconds, "toSinkSeconds");
    }
}
