package io.steadfast.router.recovery;

import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A recovery to start: of {@code lost} tasks of {@code topology}, because of {@code failure}.
 *
 * @param onto   the live host to restart every lost task on (its tasks failed there), or null to place them anew
 * @param global whether to recover globally whatever the topology's recovery mode (an escalation)
 */
record RecoveryRequest(DeployedTopology topology, DetectedFailure failure, List<TaskId> lost, @Nullable HostId onto,
                       boolean global) {

    RecoveryRequest {
        lost = List.copyOf(lost);
    }

    /** The lost tasks placed anew, in the topology's own recovery mode. */
    RecoveryRequest(DeployedTopology topology, DetectedFailure failure, List<TaskId> lost) {
        this(topology, failure, lost, null, false);
    }

    /** Starts recoveries; the strategies that find one needed ask the orchestrator through it. */
    @FunctionalInterface
    interface Starter {
        void start(RecoveryRequest request);
    }
}
