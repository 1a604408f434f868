package io.steadfast.router.host;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import java.net.URI;
import java.time.Instant;
import java.util.List;

/**
 * What the router asks a host to do in a local recovery: start some lost tasks of a running topology, in place.
 *
 * @param plan        the topology's plan (same epoch: every other task keeps running)
 * @param placement   where every task runs now, these tasks on the host asked
 * @param tasks       the lost tasks to start on the host asked
 * @param checkpoints the checkpoint they restore from, and the latest triggered
 * @param peers       control URLs of the live hosts, which hold the lost tasks' logged decisions
 * @param recovering  every task recovered in this round, on any host
 * @param requestedAt when the router asked: the recovered tasks measure their catch-up from it
 * @param recovery    the router's id of this recovery, repeated with the catch-up targets (see
 *                    {@link CatchUp#heldDecisions()})
 */
public record InPlaceRecovery(ExecutionPlan plan, TaskPlacement placement, List<TaskId> tasks, Checkpoints checkpoints,
                              List<URI> peers, List<TaskId> recovering, Instant requestedAt, String recovery) {

    /**
     * The checkpoints a local recovery goes by.
     *
     * @param restoreFrom     the completed checkpoint the lost tasks restore from
     * @param latestTriggered the latest checkpoint triggered: recovered sources send the barriers they missed up to it
     */
    public record Checkpoints(long restoreFrom, long latestTriggered) {
    }

    public InPlaceRecovery {
        tasks = List.copyOf(tasks);
        peers = List.copyOf(peers);
        recovering = List.copyOf(recovering);
    }

    /** The completed checkpoint the lost tasks restore from. */
    public long checkpointId() {
        return checkpoints.restoreFrom();
    }

    public long latestTriggered() {
        return checkpoints.latestTriggered();
    }
}
