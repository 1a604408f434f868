package io.steadfast.router.placement;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.Collection;
import java.util.Map;

/** Decides which host runs each task of a plan. Implementations must be deterministic and thread-safe. */
public interface TaskPlacer {

    /**
     * @param plan the plan to place
     * @param candidates the hosts it may use, each with its kind and how many tasks it runs already
     * @return the host of every task of the plan, each a candidate of the kind the task needs
     *         ({@link io.steadfast.runtime.plan.TaskSpec#hostKind()})
     * @throws IllegalArgumentException if a task needs a kind of host that no candidate is; see
     *                                  {@link UnservedKinds} to check first
     */
    Map<TaskId, HostId> place(ExecutionPlan plan, Collection<PlacementCandidate> candidates);
}
