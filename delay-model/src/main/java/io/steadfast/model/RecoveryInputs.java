package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import java.util.Objects;

/**
 * What a recovery prediction is computed from: the job as it ran before the failure.
 *
 * @param plan the job's tasks and channels
 * @param loads every task's load
 * @param placement where every task ran
 * @param settings the costs of the recovery's steps
 * @param delay the job's delay under these loads ({@link LongestPath})
 */
public record RecoveryInputs(ExecutionPlan plan, TaskLoads loads, Placement placement, RecoverySettings settings,
                             TopologyDelay delay) {

    public RecoveryInputs {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(loads, "loads");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(delay, "delay");
    }
}
