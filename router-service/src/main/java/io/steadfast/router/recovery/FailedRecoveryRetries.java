package io.steadfast.router.recovery;

import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tries again, {@link RecoveryOrchestrator#RETRY_BACKOFF} after the last attempt, to recover each topology with a
 * recovery that FAILED (no live host then, or a host refused the redeployment) and that no later one made good: a host that registers later, or a transient
 * refusal, no longer leaves the topology broken until the next failure happens to be detected. A topology that gave up
 * ({@value InPlaceTaskRestarts#TASK_FAILED_REPEATEDLY}) is never retried.
 */
final class FailedRecoveryRetries {

    private static final Logger LOG = LoggerFactory.getLogger(FailedRecoveryRetries.class);

    private final RecoveryContext context;
    private final RecoveryRequest.Starter recoveries;
    private final Map<TopologyId, Instant> lastAttempt = new ConcurrentHashMap<>();
    /** Whether hosts have had time to re-register since start-up: recoveries failed before it wait until then. */
    private volatile boolean restartGraceOver;

    FailedRecoveryRetries(RecoveryContext context, RecoveryRequest.Starter recoveries) {
        this.context = context;
        this.recoveries = recoveries;
    }

    /** A recovery of {@code topology} was attempted at {@code at}. */
    void attempted(TopologyId topology, Instant at) {
        lastAttempt.put(topology, at);
    }

    /** The restart grace has passed: from now on recoveries that failed before the router restarted are retried too. */
    void restartGraceOver() {
        restartGraceOver = true;
    }

    /**
     * Retries each topology with a recovery that FAILED and that no later recovery made good, unless its last attempt
     * is more recent than the backoff. A later recovery makes a failed one good if it is under way or done
     * (RECOVERING, RECOVERED) and redeployed the whole topology (GLOBAL) or at least the failed one's tasks: when
     * several hosts fail at once, one recovery may find no live host and the next, of another host's tasks, succeed,
     * and the first one's tasks would otherwise be left unrecovered for good. A failed recovery is retried even when
     * every host of its placement is LIVE again (they came back): a failed attempt may have cancelled the topology on
     * some of them, and until a recovery succeeds the topology takes no checkpoints.
     */
    void retryFailed() {
        Instant now = context.clock().instant();
        Map<TopologyId, List<Recovery>> recoveriesByTopology = context.log().all().stream()
                .sorted(Comparator.comparingLong(Recovery::id)).collect(Collectors.groupingBy(Recovery::topology));
        for (DeployedTopology topology : context.topologies().all()) {
            Instant last = lastAttempt.get(topology.id());
            if (last == null ? !restartGraceOver
                    : Duration.between(last, now).compareTo(RecoveryOrchestrator.RETRY_BACKOFF) < 0) {
                continue;
            }
            List<Recovery> unresolved = unresolvedFailures(
                    recoveriesByTopology.getOrDefault(topology.id(), List.of()));
            boolean gaveUp = unresolved.stream()
                    .anyMatch(failed -> InPlaceTaskRestarts.TASK_FAILED_REPEATEDLY.equals(failed.failureReason()));
            if (!unresolved.isEmpty() && !gaveUp) {
                retry(topology, unresolved);
            }
        }
    }

    /** Of one topology's recoveries, oldest first, the FAILED ones that no later one made good. */
    private static List<Recovery> unresolvedFailures(List<Recovery> recoveries) {
        List<Recovery> unresolved = new ArrayList<>();
        for (int i = 0; i < recoveries.size(); i++) {
            Recovery failed = recoveries.get(i);
            if (failed.status() == RecoveryStatus.FAILED
                    && recoveries.subList(i + 1, recoveries.size()).stream().noneMatch(later -> covers(later, failed))) {
                unresolved.add(failed);
            }
        }
        return unresolved;
    }

    private static boolean covers(Recovery later, Recovery failed) {
        boolean underWayOrDone = later.status() == RecoveryStatus.RECOVERING
                || later.status() == RecoveryStatus.RECOVERED;
        return underWayOrDone && (later.mode() == RecoveryMode.GLOBAL || later.tasks().containsAll(failed.tasks()));
    }

    /**
     * Starts one recovery of the tasks of every unresolved failure and of those now on dead hosts, as the failure of
     * the latest one's host.
     */
    private void retry(DeployedTopology topology, List<Recovery> unresolved) {
        Recovery latest = unresolved.get(unresolved.size() - 1);
        LOG.info("Retrying the recovery of '{}' (last attempt failed: {}{})", topology.id(), latest.failureReason(),
                unresolved.size() > 1 ? "; with " + (unresolved.size() - 1) + " earlier failed recoveries of it" : "");
        Set<TaskId> tasks = new LinkedHashSet<>();
        unresolved.forEach(failed -> tasks.addAll(failed.tasks()));
        tasks.addAll(LostTasks.onDeadHosts(topology, context.detector()));
        recoveries.start(new RecoveryRequest(topology, new DetectedFailure(latest.failedHost(), latest.lastHeartbeat(),
                latest.detectedAt(), latest.detectionCause() == null ? DetectionCause.HEARTBEAT_TIMEOUT
                : latest.detectionCause()), List.copyOf(tasks)));
    }
}
