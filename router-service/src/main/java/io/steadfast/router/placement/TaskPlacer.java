package io.steadfast.router.placement;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.Map;

/** Decides which host runs each task of a plan. Implementations must be deterministic and thread-safe. */
public interface TaskPlacer {

    /**
     * @param plan the plan to place
     * @param currentLoad the candidate hosts (at least one) and how many tasks each runs already
     * @return the host of every task of the plan, each one of the candidates
     */
    Map<TaskId, HostId> place(ExecutionPlan plan, Map<HostId, Integer> currentLoad);
}
