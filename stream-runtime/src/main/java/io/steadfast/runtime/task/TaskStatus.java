package io.steadfast.runtime.task;

import java.util.EnumSet;
import java.util.Set;

/** The lifecycle of a task. Legal moves are listed per state; anything else is a bug. */
public enum TaskStatus {
    CREATED,
    RUNNING,
    /** Every input (or the source) has ended and all output was flushed; the task still answers queries. */
    FINISHED,
    CANCELLED,
    FAILED;

    private Set<TaskStatus> next() {
        return switch (this) {
            case CREATED -> EnumSet.of(RUNNING, CANCELLED, FAILED);
            case RUNNING -> EnumSet.of(FINISHED, CANCELLED, FAILED);
            case FINISHED -> EnumSet.of(CANCELLED);
            case CANCELLED, FAILED -> EnumSet.noneOf(TaskStatus.class);
        };
    }

    public boolean canMoveTo(TaskStatus target) {
        return next().contains(target);
    }

    public boolean isTerminal() {
        return this == CANCELLED || this == FAILED;
    }
}
