package io.steadfast.router.recovery;

import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tries again, {@link RecoveryOrchestrator#RETRY_BACKOFF} after the last attempt, to recover each topology whose latest
 * recovery FAILED (no live host then, or a host refused the redeployment): a host that registers later, or a transient
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
     * Retries each topology whose latest recovery FAILED, unless its last attempt is more recent than the backoff. It
     * is retried even when every host of its placement is LIVE again (they came back): a failed attempt may have
     * cancelled the topology on some of them, and until a recovery succeeds the topology takes no checkpoints.
     */
    void retryFailed() {
        Instant now = context.clock().instant();
        for (DeployedTopology topology : context.topologies().all()) {
            Instant last = lastAttempt.get(topology.id());
            if (last == null ? !restartGraceOver
                    : Duration.between(last, now).compareTo(RecoveryOrchestrator.RETRY_BACKOFF) < 0) {
                continue;
            }
            context.log().latestOf(topology.id()).filter(latest -> latest.status() == RecoveryStatus.FAILED)
                    .filter(latest -> !InPlaceTaskRestarts.TASK_FAILED_REPEATEDLY.equals(latest.failureReason()))
                    .ifPresent(latest -> retry(topology, latest));
        }
    }

    private void retry(DeployedTopology topology, Recovery latest) {
        LOG.info("Retrying the recovery of '{}' (last attempt failed: {})", topology.id(), latest.failureReason());
        List<TaskId> lost = LostTasks.onDeadHosts(topology, context.detector());
        recoveries.start(new RecoveryRequest(topology, new DetectedFailure(latest.failedHost(), latest.lastHeartbeat(),
                latest.detectedAt(), latest.detectionCause() == null ? DetectionCause.HEARTBEAT_TIMEOUT
                : latest.detectionCause()), lost.isEmpty() ? latest.tasks() : lost));
    }
}
