package io.steadfast.router.recovery;

import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes over, after a router restart, what the stored log says of recoveries: those the restart interrupted before
 * they had redeployed are abandoned and their topologies recovered afresh, and hosts of a stored placement that never
 * re-register are taken as failed.
 */
final class RouterRestartResumption {

    private static final Logger LOG = LoggerFactory.getLogger(RouterRestartResumption.class);

    private final RecoveryContext context;
    private final RecoveryRequest.Starter recoveries;
    /** Recoveries abandoned at start-up because the router restarted before they had redeployed. */
    private final List<Recovery> interrupted = new CopyOnWriteArrayList<>();

    RouterRestartResumption(RecoveryContext context, RecoveryRequest.Starter recoveries) {
        this.context = context;
        this.recoveries = recoveries;
    }

    /**
     * At start-up, before hosts re-register:
     * <ul>
     * <li>every recovery still RECOVERING without a completed redeployment is marked ABANDONED (reason
     * ROUTER_RESTARTED). Its topology may be cancelled on some hosts and redeployed on others, in either epoch, which
     * host reports cannot tell apart (they carry no epoch); so its checkpointing is paused and
     * {@link #recoverInterrupted} recovers it afresh from the latest completed checkpoint;</li>
     * <li>a topology whose latest recovery FAILED has its checkpointing paused; {@link FailedRecoveryRetries} retries
     * it once the restart grace has passed;</li>
     * <li>a RECOVERING recovery that had redeployed is left as it is: the topology runs in its new epoch, and the
     * progress check marks it RECOVERED once the re-registered hosts report the sinks caught up.</li>
     * </ul>
     *
     * @return the recoveries abandoned
     */
    List<Recovery> resumeAfterRestart() {
        RecoveryLog log = context.log();
        List<Recovery> abandoned = new ArrayList<>();
        for (Recovery recovery : log.recovering()) {
            if (recovery.restoredAt() != null) {
                continue;
            }
            Recovery marked = recovery.abandoned("ROUTER_RESTARTED", "The router restarted during this recovery,"
                    + " before topology '" + recovery.topology() + "' was redeployed; a fresh recovery starts once"
                    + " hosts have re-registered (was: " + recovery.message() + ")");
            log.save(marked);
            context.coordinators().pause(recovery.topology(), "recovery " + recovery.id() + " was interrupted by a"
                    + " router restart; checkpointing resumes once a fresh recovery has redeployed the topology");
            abandoned.add(marked);
            LOG.warn("Recovery {} of '{}' was interrupted by a router restart; recovering the topology afresh once"
                    + " hosts have re-registered", recovery.id(), recovery.topology());
        }
        interrupted.addAll(abandoned);
        for (DeployedTopology topology : context.topologies().all()) {
            log.latestOf(topology.id()).filter(latest -> latest.status() == RecoveryStatus.FAILED).ifPresent(failed ->
                    context.coordinators().pause(topology.id(), "recovery " + failed.id() + " had failed ("
                            + failed.failureReason() + ") before the router restarted; checkpointing resumes once a"
                            + " retry succeeds, after hosts have re-registered"));
        }
        return abandoned;
    }

    /**
     * Recovers afresh each topology whose recovery {@link #resumeAfterRestart} abandoned, unless a later recovery of
     * it has started since (e.g. for a host that never re-registered) or it was cancelled. Called once the restart
     * grace has passed.
     */
    void recoverInterrupted() {
        for (Recovery abandoned : List.copyOf(interrupted)) {
            interrupted.remove(abandoned);
            Optional<DeployedTopology> topology = context.topologies().find(abandoned.topology());
            Optional<Recovery> latest = context.log().latestOf(abandoned.topology());
            if (topology.isEmpty() || latest.isPresent() && latest.get().id() != abandoned.id()) {
                continue;
            }
            List<TaskId> lost = LostTasks.onDeadHosts(topology.get(), context.detector());
            recoveries.start(new RecoveryRequest(topology.get(), new DetectedFailure(abandoned.failedHost(),
                    abandoned.lastHeartbeat(), abandoned.detectedAt()), lost.isEmpty() ? abandoned.tasks() : lost));
        }
    }

    /**
     * After a router restart the topologies come back from the store, but hosts only re-register as their next
     * heartbeat is refused; a host that died while the router was down never does, so the detector never sees it go
     * from LIVE to DEAD. Called once the restart grace has passed: every host of a placement that has not registered
     * since is taken as failed (last heard of at {@code startedAt}, when the router became ready) and handed to
     * {@code recover}.
     */
    void recoverHostsNeverSeen(Instant startedAt, Consumer<DetectedFailure> recover) {
        Set<HostId> unknown = new TreeSet<>();
        for (DeployedTopology topology : context.topologies().all()) {
            topology.placement().values().stream().filter(host -> context.detector().host(host).isEmpty())
                    .forEach(unknown::add);
        }
        for (HostId host : unknown) {
            LOG.warn("Host {} runs tasks of a stored topology but has not registered since this router started at {};"
                    + " treating it as DEAD", host, startedAt);
            recover.accept(new DetectedFailure(host, startedAt, context.clock().instant()));
        }
    }
}
