package io.steadfast.router.recovery;

import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.placement.TaskPlacer;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Global recovery: the topology is cancelled on the live hosts, placed anew on them and redeployed with the next
 * epoch, every task restored from the latest completed checkpoint (or from scratch if none completed); its
 * checkpointing resumes once it is redeployed. The recovery is RECOVERED once the sinks have taken in what they had
 * before the failure. Runs on the recovery thread.
 */
final class GlobalRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(GlobalRecovery.class);

    private final RecoveryContext context;
    private final TaskPlacer placer;
    private final StandbyHosts standby;
    private final HostClient hostClient;
    private final CheckpointRecords records;
    private final TopologyProgress progress;

    GlobalRecovery(RecoveryContext context, TaskPlacer placer, StandbyHosts standby, HostClient hostClient,
                   CheckpointRecords records, TopologyProgress progress) {
        this.context = context;
        this.placer = placer;
        this.standby = standby;
        this.hostClient = hostClient;
        this.records = records;
        this.progress = progress;
    }

    /**
     * Redeploys the topology of {@code recovery} on the {@code live} hosts, restored from the latest completed
     * checkpoint ({@code knownCompleted} if the checkpoint store cannot be reached).
     *
     * @param live the live hosts, among them one at least of each kind the topology's tasks need
     */
    void redeploy(DeployedTopology topology, Recovery recovery, Optional<CompletedCheckpoint> knownCompleted,
                  List<RegisteredHost> live) {
        live.forEach(host -> cancelQuietly(host, topology));
        List<RegisteredHost> placeable = standby.forPlacement(live, context.topologies().all());
        Map<HostId, RegisteredHost> byId = new TreeMap<>();
        placeable.forEach(host -> byId.put(host.id(), host));
        ExecutionPlan plan = topology.plan().withEpoch(topology.plan().epoch() + 1);
        Map<TaskId, HostId> placement = placer.place(plan, StandbyHosts.candidates(placeable,
                context.topologies().all(), topology.id()));
        OptionalLong restoreFrom = latestCompleted(topology, knownCompleted);
        DeployedTopology redeployed = topology.recovered(plan, placement, placement.keySet());
        String redeployFailure = deploy(redeployed, byId, restoreFrom);
        Duration backoff = RecoveryOrchestrator.RETRY_BACKOFF;
        if (redeployFailure != null) {
            context.log().save(recovery.failed("REDEPLOY_FAILED", redeployFailure + "; retried in "
                    + backoff.toSeconds() + " s"));
            context.coordinators().pause(topology.id(), "recovery " + recovery.id() + " failed (REDEPLOY_FAILED);"
                    + " checkpointing resumes once a later recovery succeeds (retried every " + backoff.toSeconds()
                    + " s)");
            return;
        }
        context.topologies().replace(redeployed);
        context.coordinators().resume(topology.id());
        Instant restoredAt = context.clock().instant();
        long alreadyAtCheckpoint = knownCompleted.filter(done -> restoreFrom.isPresent()
                        && done.checkpointId() == restoreFrom.getAsLong() && done.epoch() == topology.plan().epoch())
                .map(CompletedCheckpoint::sinkRecordsAtTrigger).orElse(0L);
        String text = "Topology '" + topology.id() + "' redeployed as epoch " + plan.epoch() + " on "
                + new TreeSet<>(placement.values()) + (restoreFrom.isPresent()
                ? ", every task restored from checkpoint " + restoreFrom.getAsLong()
                : ", from the start (no checkpoint had completed)");
        context.log().save(recovery.restored(restoredAt, plan.epoch(),
                restoreFrom.isPresent() ? restoreFrom.getAsLong() : null,
                Math.max(0, recovery.sinkRecordsTarget() - alreadyAtCheckpoint), text));
        LOG.info("{} ({} ms after detection)", text, Duration.between(recovery.detectedAt(), restoredAt).toMillis());
    }

    /**
     * Marks {@code recovery} RECOVERED once the sinks of its redeployment, reported twice since, have caught up (or
     * finished).
     *
     * @return whether the topology runs the recovery's epoch and was reported twice since: if not, it may be stuck
     */
    boolean checkCaughtUp(Recovery recovery, DeployedTopology topology) {
        if (topology.plan().epoch() != recovery.epoch() || !progress.reportedTwiceSince(topology,
                recovery.restoredAt())) {
            return false;
        }
        if (progress.finished(topology) || progress.sinkRecordsIn(topology) >= recovery.sinkRecordsTarget()) {
            Recovery done = recovery.caughtUp(context.clock().instant());
            context.log().save(done);
            LOG.info("Topology '{}' caught up {} ms after its redeployment", recovery.topology(),
                    done.catchUpMillis());
        }
        return true;
    }

    private void cancelQuietly(RegisteredHost host, DeployedTopology topology) {
        cancelQuietly(hostClient, host, topology);
    }

    /** Cancels the topology on {@code host}; a host that cannot be reached is logged and left. */
    static void cancelQuietly(HostClient hostClient, RegisteredHost host, DeployedTopology topology) {
        try {
            hostClient.cancel(host, topology.id());
        } catch (HostCallException e) {
            LOG.warn("Could not cancel topology '{}' on host {}: {}", topology.id(), host.id(), e.getMessage());
        }
    }

    private OptionalLong latestCompleted(DeployedTopology topology, Optional<CompletedCheckpoint> known) {
        try {
            return records.latestCompleted(topology.id());
        } catch (RuntimeException e) {
            LOG.warn("Checkpoint store unreachable while recovering '{}' ({}); using the latest checkpoint this router"
                    + " completed", topology.id(), e.getMessage());
            return known.map(done -> OptionalLong.of(done.checkpointId())).orElse(OptionalLong.empty());
        }
    }

    /** Deploys on every host of the placement; on a failure cancels where it succeeded and says what failed. */
    private @Nullable String deploy(DeployedTopology topology, Map<HostId, RegisteredHost> live,
                                    OptionalLong restoreFrom) {
        ExecutionPlan plan = topology.plan();
        Map<HostId, String> endpoints = new LinkedHashMap<>();
        topology.placement().values().stream().distinct().sorted()
                .forEach(host -> endpoints.put(host, live.get(host).dataEndpoint()));
        TaskPlacement taskPlacement = new TaskPlacement(topology.placement(), endpoints, topology.incarnations());
        List<RegisteredHost> deployed = new ArrayList<>();
        for (HostId hostId : endpoints.keySet()) {
            RegisteredHost host = live.get(hostId);
            try {
                hostClient.deploy(host, plan, taskPlacement, restoreFrom);
                deployed.add(host);
            } catch (HostCallException e) {
                deployed.forEach(done -> cancelQuietly(done, topology));
                LOG.warn("Redeploying '{}' failed on host {}: {}", plan.topology(), hostId, e.getMessage());
                return "Redeploying topology '" + plan.topology() + "' failed on host " + hostId + ": "
                        + e.getMessage();
            }
        }
        return null;
    }
}
