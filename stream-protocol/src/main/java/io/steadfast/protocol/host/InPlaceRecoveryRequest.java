package io.steadfast.protocol.host;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.protocol.checkpoint.CompletedCheckpointId;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of a host's {@code POST /api/v1/deployments/{topology}/recoveries}: start lost tasks there, in place (local
 * recovery). Its groups are members of the body itself in JSON.
 *
 * @param plan        the topology's current plan (same epoch: the other tasks keep running); may be left out when
 *                    the host holds it at {@code epoch} (it runs tasks of the topology, or fetched the plan ahead from
 *                    the router), else the host answers 409 with reason {@code PLAN_NOT_HELD}
 * @param epoch       the plan's epoch; needed when the plan is left out, checked against it when given
 * @param placement   where every task runs now, the lost ones on the host
 * @param tasks       the lost tasks to start on the host
 * @param checkpoints the checkpoint to restore them from, and the latest triggered
 * @param peers       base URLs of the live hosts, asked for the lost tasks' logged decisions
 * @param round       the recovery round this request belongs to (its members optional)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InPlaceRecoveryRequest(@Nullable ExecutionPlan plan, @Nullable @Min(0) Integer epoch,
                                     @NotNull @Valid Placement placement, @NotEmpty List<TaskId> tasks,
                                     @JsonUnwrapped @Valid Checkpoints checkpoints, @NotNull List<URI> peers,
                                     @JsonUnwrapped @Nullable Round round) {

    /** The round's members, empty ones when the body left them all out. */
    public Round roundOrEmpty() {
        return round == null ? new Round(null, null, null) : round;
    }

    /**
     * @param checkpointId    the completed checkpoint to restore the lost tasks from
     * @param latestTriggered the latest checkpoint triggered: recovered sources send the barriers they missed up to it
     *                        (0 when left out)
     */
    public record Checkpoints(@NotNull @CompletedCheckpointId CheckpointId checkpointId,
                              @Nullable CheckpointId latestTriggered) {
    }

    /**
     * @param recovering  every task recovered in this round, on any host ({@code tasks} if left out): input from them
     *                    needs no catch-up target
     * @param requestedAt when the router asked for the recovery (when the host got the request if left out): the
     *                    recovered tasks measure their catch-up from it, on the host's clock
     * @param recovery    the router's id of this recovery (optional): the same id comes with the catch-up targets,
     *                    carrying what the peers hold of the tasks' decisions, so that decisions fetched ahead while
     *                    the failure was being confirmed are used where still complete; without it they are fetched
     */
    public record Round(@Nullable List<TaskId> recovering, @Nullable Instant requestedAt, @Nullable String recovery) {
    }
}
