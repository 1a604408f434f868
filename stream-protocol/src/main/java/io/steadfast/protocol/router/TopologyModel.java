package io.steadfast.protocol.router;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The router's answer to {@code GET /api/v1/topologies/{id}/model}: what the delay model predicts for the topology
 * from its tasks' latest measurements, with the inputs it used. A figure the model cannot give (a task that cannot
 * keep up, ρ ≥ 1, has no steady-state wait, and a recovery that needs it never catches up) is null, and the tasks
 * that cause it are named.
 *
 * @param topology the topology
 * @param computedAt when the router computed it (its clock)
 * @param queueingModel the per-task queueing model, e.g. {@code G/G/1 (Kingman)}
 * @param tasks every task, in plan order: its measured load and its predicted delay
 * @param edges every edge between two operators: the delay its channels add to a record
 * @param endToEnd the predicted delay from a source to a sink
 * @param recovery the settings the recovery predictions assume
 * @param hostLosses for each host running tasks of the topology, the predicted recovery after losing it, each mode
 */
public record TopologyModel(TopologyId topology, Instant computedAt, String queueingModel, List<TaskModel> tasks,
                            List<EdgeModel> edges, EndToEnd endToEnd, RecoveryAssumptions recovery,
                            List<HostLoss> hostLosses) {

    /**
     * One task.
     *
     * @param task the task
     * @param host the host it is placed on
     * @param arrivalPerSecond λ: records it takes in per second (a source: emits), as its host last measured
     * @param serviceMillis E[S]: its thread's busy time per record
     * @param recordsPerFrame b: the records that arrive together, a frame (a source: a poll) at a time, as its host
     *                        last measured; the queue is one of frames, and a record also waits for those before it
     *                        in its frame
     * @param utilisation ρ = λ · E[S]
     * @param stability STABLE, NEAR_SATURATION (ρ ≥ 0.9: the prediction is sensitive to small changes of rate) or
     *                  UNSTABLE (ρ ≥ 1: its queue grows without bound)
     * @param waitMillis the predicted mean wait in its input queue; null when UNSTABLE
     * @param stateBytes its state in the latest completed checkpoint (0 before the first)
     * @param loggedRecords the records it has sent since that checkpoint, which a recovery of its downstream
     *                      tasks would replay
     */
    public record TaskModel(TaskId task, HostId host, double arrivalPerSecond, double serviceMillis,
                            double recordsPerFrame, double utilisation, String stability, @Nullable Double waitMillis, long stateBytes,
                            long loggedRecords) {
    }

    /**
     * One edge between two operators.
     *
     * @param from the upstream operator
     * @param to the downstream operator
     * @param batchingMillis the mean time a record waits in its output frame before the frame leaves: what the
     *                       upstream tasks measured, or for those that did not, what the batching settings give at
     *                       the channels' rates; weighted by the channels' rates
     * @param networkMillis the transfer of a frame (the configured {@code steadfast.router.model.network})
     */
    public record EdgeModel(String from, String to, double batchingMillis, double networkMillis) {
    }

    /**
     * @param maxMillis the longest path from a source to a sink, summing each task's wait and service and each
     *                  channel's batching and network delay; null if a task on the way cannot keep up
     * @param meanMillis the delay to each sink weighted by its input rate (what a measured mean end-to-end latency
     *                   compares with); null as {@code maxMillis}
     * @param criticalPath the tasks of the longest path, source first
     * @param saturatedTasks tasks that cannot keep up (ρ ≥ 1)
     */
    public record EndToEnd(@Nullable Double maxMillis, @Nullable Double meanMillis, List<TaskId> criticalPath,
                           List<TaskId> saturatedTasks) {
    }

    /**
     * @param detectionMillis from a host's failure until the router declares it dead (its suspicion settings)
     * @param checkpointIntervalMillis the topology's checkpoint interval
     * @param checkpointAgeMillis how old the latest completed checkpoint is now; the age a failure now would meet
     * @param restoreBytesPerSecond how fast a recovered task's state is fetched
     */
    public record RecoveryAssumptions(double detectionMillis, double checkpointIntervalMillis,
                                      double checkpointAgeMillis, double restoreBytesPerSecond) {
    }

    /**
     * The predicted recovery after losing one host.
     *
     * @param host the host
     * @param lostTasks the tasks it runs
     * @param local a LOCAL recovery
     * @param global a GLOBAL recovery
     * @param faster the mode predicted to recover sooner, or null if neither catches up
     * @param reason why, in a line with the figures
     */
    public record HostLoss(HostId host, List<TaskId> lostTasks, RecoveryForecast local, RecoveryForecast global,
                           @Nullable String faster, String reason) {
    }
}
