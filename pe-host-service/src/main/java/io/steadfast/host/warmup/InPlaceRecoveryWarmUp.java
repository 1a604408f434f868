package io.steadfast.host.warmup;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.runtime.host.InPlaceRestore;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovers a job in place on this host, in process, a few times over, so that what a recovery runs first (restoring
 * operator state from a snapshot, creating tasks with their channels at the checkpoint's positions, replaying,
 * watching the catch-up) is loaded and compiled before a real recovery needs it: a freshly started standby took
 * 100-130 ms to start four recovered tasks of a 32-task job, hosts that had recovered tasks before 10-35 ms. Each
 * round deploys a 32-task word count here (at a new epoch), completes a checkpoint of it whose snapshots
 * {@link WarmUpSnapshots} keeps, cancels every task and recovers them all in place from those snapshots, and lets
 * the job finish. Nothing leaves the host: the router and the checkpoint-service never hear of the job.
 */
final class InPlaceRecoveryWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(InPlaceRecoveryWarmUp.class);
    static final TopologyId TOPOLOGY = TopologyId.of("steadfast-warm-up-recovery");
    /** Rounds: enough for the per-task and per-channel code to be compiled, a few seconds on two busy cores. */
    static final int ROUNDS = 4;
    private static final Duration STEP_LIMIT = Duration.ofSeconds(10);
    private static final String JOB = """
            {"id": "%s", "recovery": {"mode": "LOCAL"}, "operators": [
              {"id": "source", "type": "generator", "parallelism": 8,
               "config": {"count": 2000, "keys": 1000, "ratePerSecond": 5000}},
              {"id": "count", "type": "keyed-count", "parallelism": 16, "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "parallelism": 8, "inputs": [{"from": "count"}]}
            ]}""".formatted(TOPOLOGY);

    private final ProcessingNode node;
    private final WarmUpSnapshots snapshots;
    private final TaskWaits waits;

    InPlaceRecoveryWarmUp(ProcessingNode node, WarmUpSnapshots snapshots) {
        this.node = node;
        this.snapshots = snapshots;
        this.waits = new TaskWaits(node);
    }

    /**
     * Runs the rounds; stops early, quietly, at a round that does not go through (logged at debug).
     *
     * @return the rounds recovered
     */
    int run() throws InterruptedException {
        long start = System.nanoTime();
        ExecutionPlan first = PlanExpander.expand(new TopologySpecReader().read(JOB));
        Map<TaskId, HostId> hosts = new TreeMap<>();
        first.tasks().forEach(task -> hosts.put(task.id(), node.id()));
        TaskPlacement placement = new TaskPlacement(hosts, Map.of(node.id(), node.dataEndpoint()));
        Set<TaskId> tasks = new TreeSet<>(hosts.keySet());
        int recovered = 0;
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                if (!recoverOnce(first.withEpoch(round), placement, tasks, round)) {
                    break;
                }
                recovered++;
            }
        } catch (RuntimeException e) {
            LOG.debug("The in-place recovery warm-up stopped: {}", e.toString());
        } finally {
            cancel();
            snapshots.drop(TOPOLOGY);
        }
        LOG.info("Warmed up recovery in place with {} of {} rounds of a {}-task job in {} ms", recovered, ROUNDS,
                tasks.size(), (System.nanoTime() - start) / 1_000_000);
        return recovered;
    }

    private boolean recoverOnce(ExecutionPlan plan, TaskPlacement placement, Set<TaskId> tasks, long checkpointId)
            throws InterruptedException {
        snapshots.keep(TOPOLOGY);
        node.deploy(plan, placement);
        if (!node.triggerCheckpoint(TOPOLOGY, checkpointId)
                || !TaskWaits.holdsWithin(() -> snapshots.of(TOPOLOGY).size() == tasks.size(), STEP_LIMIT)) {
            LOG.debug("The warm-up job's checkpoint {} did not complete", checkpointId);
            return false;
        }
        node.checkpointCompleted(TOPOLOGY, checkpointId);
        Map<TaskId, OperatorSnapshot> taken = snapshots.of(TOPOLOGY);
        cancel(); // every task of the job is lost
        node.recoverInPlace(plan, placement, tasks, new InPlaceRestore(checkpointId, taken, Map.of(), checkpointId,
                tasks, System.nanoTime(), Map.of()));
        boolean finished = waits.finishWithin(TOPOLOGY, STEP_LIMIT);
        cancel();
        if (!finished) {
            LOG.debug("The warm-up job recovered from checkpoint {} did not finish", checkpointId);
        }
        return finished;
    }

    private void cancel() {
        node.cancel(TOPOLOGY);
    }
}
