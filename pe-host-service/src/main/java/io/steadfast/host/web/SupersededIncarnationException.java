package io.steadfast.host.web;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;

/**
 * A request for a task's decisions came from an incarnation of the task that this host knows to be superseded: a
 * recovery that a later one took over, whose answer must not be used.
 */
final class SupersededIncarnationException extends RuntimeException {

    /** The {@code reason} of the 409 problem detail. */
    static final String REASON = "SUPERSEDED_INCARNATION";

    private final TaskId task;
    private final int incarnation;

    SupersededIncarnationException(HostId host, TaskId task, int incarnation) {
        super("Host " + host + " knows a newer incarnation of task '" + task + "' than " + incarnation + ", the one"
                + " asking for its decisions: a later recovery took the task over, so this one must stop");
        this.task = task;
        this.incarnation = incarnation;
    }

    TaskId task() {
        return task;
    }

    int incarnation() {
        return incarnation;
    }
}
