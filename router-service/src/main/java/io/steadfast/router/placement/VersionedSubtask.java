package io.steadfast.router.placement;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import java.util.Optional;

/**
 * One subtask of an N-version operator, whose versions ({@code score~v0#1}, {@code score~v1#1}, ...) compute the same
 * thing independently and should run on different hosts, so that one host failure takes at most one of them.
 *
 * @param operator the N-version operator, e.g. {@code score}
 * @param subtask  the subtask index the versions share
 */
record VersionedSubtask(OperatorId operator, int subtask) {

    /** The subtask {@code task} is a version of; empty for a task that is no version. */
    static Optional<VersionedSubtask> of(TaskId task) {
        return task.operator().isVersion()
                ? Optional.of(new VersionedSubtask(task.operator().versionedOperator(), task.subtask()))
                : Optional.empty();
    }

    @Override
    public String toString() {
        return operator + "#" + subtask;
    }
}
