package io.steadfast.router.recovery;

import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * While a suspected host's failure is being confirmed, has the hosts that would recover its tasks of each LOCAL-mode
 * topology fetch their snapshots (and logged decisions) ahead, so that the local recovery that may follow finds them
 * there. Thread-safe.
 */
final class SuspicionPrefetch {

    /**
     * How long after a host was suspected its tasks' snapshots are fetched ahead in each checkpoint that completes: a
     * suspicion is decided within the minimum silence and the probe's timeout (300 ms each by default).
     */
    static final Duration SUSPICION_KEPT = Duration.ofSeconds(2);

    private final RecoveryContext context;
    private final LocalRecoverer recoverer;
    /** Runs a step on the recovery thread (at once if it is not started). */
    private final Executor recoveryThread;
    /** The hosts suspected lately, with when: see {@link #checkpointCompleted}. */
    private final Map<HostId, Instant> suspected = new ConcurrentHashMap<>();

    SuspicionPrefetch(RecoveryContext context, LocalRecoverer recoverer, Executor recoveryThread) {
        this.context = context;
        this.recoverer = recoverer;
        this.recoveryThread = recoveryThread;
    }

    /**
     * A host is suspected (a peer lost its data-plane connection to it and it did not answer its probe) and is DEAD if
     * it also misses its heartbeat: the hosts that would recover its tasks fetch the snapshots of the latest completed
     * checkpoint, and those of every pending one that the suspected host's tasks all acknowledged: the other tasks'
     * acks may still complete it while the failure is being confirmed, and the recovery then restores from it. One
     * that completes later while the host is suspected has them fetched then ({@link #checkpointCompleted}): acks
     * the host sent just before it died may reach this router only after the suspicion. Returns at once; any thread.
     */
    void prefetchFor(HostId suspect) {
        suspected.put(suspect, context.clock().instant());
        for (DeployedTopology topology : context.topologies().all()) {
            List<TaskId> lost = localTasksOn(topology, suspect);
            if (lost.isEmpty()) {
                continue;
            }
            List<Long> checkpoints = new ArrayList<>();
            LocalRecovery.restorableInPlace(topology, context.coordinators().lastCompleted(topology.id()))
                    .ifPresent(completed -> checkpoints.add(completed.checkpointId()));
            context.coordinators().coordinator(topology.id())
                    .filter(coordinator -> coordinator.epoch() == topology.plan().epoch())
                    .ifPresent(coordinator -> checkpoints.addAll(coordinator.pendingAcknowledgedBy(lost)));
            List<RegisteredHost> live = liveHostsBut(suspect);
            if (!checkpoints.isEmpty() && !live.isEmpty()) {
                recoverer.prefetch(topology, lost, checkpoints, live, true);
            }
        }
    }

    /** The host's failure was confirmed: its recovery takes over. */
    void forget(HostId host) {
        suspected.remove(host);
    }

    /**
     * Checkpoint {@code checkpointId} of a topology completed: the snapshots of its tasks on a host suspected in the
     * last {@link #SUSPICION_KEPT} are fetched ahead in it (their decisions were, with the suspicion), for the recovery
     * that may follow to restore from it. Returns at once; any thread (a coordinator's, under its lock).
     */
    void checkpointCompleted(TopologyId topologyId, long checkpointId) {
        if (suspected.isEmpty()) {
            return;
        }
        recoveryThread.execute(() -> {
            Instant now = context.clock().instant();
            suspected.values().removeIf(since -> Duration.between(since, now).compareTo(SUSPICION_KEPT) > 0);
            context.topologies().find(topologyId).ifPresent(topology -> suspected.keySet().forEach(suspect -> {
                List<TaskId> lost = localTasksOn(topology, suspect);
                List<RegisteredHost> live = liveHostsBut(suspect);
                if (!lost.isEmpty() && !live.isEmpty()) {
                    recoverer.prefetch(topology, lost, List.of(checkpointId), live, false);
                }
            }));
        });
    }

    /** The tasks of a LOCAL-mode topology on {@code host}, sorted; none for a GLOBAL-mode one. */
    private static List<TaskId> localTasksOn(DeployedTopology topology, HostId host) {
        return topology.plan().recoveryMode().logsOutput() ? LostTasks.on(topology, host) : List.of();
    }

    private List<RegisteredHost> liveHostsBut(HostId host) {
        return context.detector().liveHosts().stream().filter(live -> !live.id().equals(host)).toList();
    }
}
