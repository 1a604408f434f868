package io.steadfast.protocol.host;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.steadfast.protocol.checkpoint.CompletedCheckpointId;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.ExecutionPlan;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * Body of a host's {@code POST /api/v1/deployments}: the whole plan and where each of its tasks runs.
 *
 * @param plan      the execution plan, as the router expanded it
 * @param placement where every task of the plan runs
 * @param restore   the checkpoint to restore the host's tasks from before they start, or null to start afresh
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeploymentRequest(@NotNull ExecutionPlan plan, @NotNull @Valid Placement placement,
                                @Nullable @Valid Restore restore) {

    /** @param checkpointId a completed checkpoint of the topology */
    public record Restore(@NotNull @CompletedCheckpointId CheckpointId checkpointId) {
    }
}
