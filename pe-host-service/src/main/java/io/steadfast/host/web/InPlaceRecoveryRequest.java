package io.steadfast.host.web;

import io.steadfast.runtime.plan.ExecutionPlan;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/deployments/{topology}/recoveries}: start lost tasks here, in place (local
 * recovery).
 *
 * @param plan            the topology's current plan (same epoch: the other tasks keep running); may be left out
 *                        when this host holds it at {@code epoch} (it runs tasks of the topology, or fetched the plan
 *                        ahead from the router), else the host answers 409 with reason {@code PLAN_NOT_HELD}
 * @param placement       where every task runs now, the lost ones on this host
 * @param tasks           the lost tasks to start here ({@code topology/operator#subtask})
 * @param checkpointId    the completed checkpoint to restore them from
 * @param latestTriggered the latest checkpoint triggered: recovered sources send the barriers they missed up to it
 * @param peers           base URLs of the live hosts, asked for the lost tasks' logged decisions
 * @param recovering      every task recovered in this round, on any host (optional; {@code tasks} if left out):
 *                        input from them needs no catch-up target
 * @param requestedAt     when the router asked for the recovery (optional; when this host got the request if left
 *                        out): the recovered tasks measure their catch-up from it, on this host's clock
 * @param epoch           the plan's epoch; needed when the plan is left out, checked against it when given
 * @param recovery        the router's id of this recovery (optional): the same id comes with the catch-up targets,
 *                        carrying what the peers hold of the tasks' decisions, so that decisions fetched ahead while
 *                        the failure was being confirmed are used where still complete; without it they are fetched
 */
public record InPlaceRecoveryRequest(@Nullable ExecutionPlan plan,
                                     @NotNull @Valid DeploymentRequest.Placement placement,
                                     @NotEmpty List<String> tasks, @Min(1) long checkpointId,
                                     @Min(0) long latestTriggered, @NotNull List<URI> peers,
                                     @Nullable List<String> recovering, @Nullable Instant requestedAt,
                                     @Nullable @Min(0) Integer epoch, @Nullable String recovery) {

    /** A request that recovers {@code tasks} alone. */
    public InPlaceRecoveryRequest(ExecutionPlan plan, DeploymentRequest.Placement placement, List<String> tasks,
                                  long checkpointId, long latestTriggered, List<URI> peers) {
        this(plan, placement, tasks, checkpointId, latestTriggered, peers, null, null, null, null);
    }
}
