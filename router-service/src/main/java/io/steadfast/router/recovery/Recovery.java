package io.steadfast.router.recovery;

import io.steadfast.router.failure.DetectionCause;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One recovery of a topology after a host failure, local or global. Immutable; each step makes a new copy.
 *
 * @param id a sequence number, unique in this router
 * @param topology the recovered topology
 * @param failedHost the host whose failure started it
 * @param tasks the topology's tasks that ran on the failed host
 * @param epoch the epoch of the redeployment
 * @param restoredFrom the checkpoint every task was restored from, or null if none had completed (started over)
 * @param lastHeartbeat the failed host's last heartbeat
 * @param detectedAt when the failure was detected
 * @param restoredAt when every host had answered the redeployment, or null
 * @param caughtUpAt when every sink had taken in as many records as before the failure (or all finished), or null
 * @param detectionMillis heartbeat silence until detection
 * @param restoreMillis detection until the redeployment was answered, or null
 * @param catchUpMillis redeployment until the output caught up, or null
 * @param status where it is
 * @param failureReason why it FAILED (NO_LIVE_HOSTS, REDEPLOY_FAILED) or was ABANDONED (ROUTER_RESTARTED,
 *                      SUPERSEDED, TOPOLOGY_CANCELLED), or null
 * @param message what happened, for people
 * @param sinkRecordsTarget records the sinks of the new deployment must take in to have caught up
 * @param detectionCause what made the router declare the host DEAD (null in records stored before it was kept)
 * @param mode how the topology was recovered: LOCAL (only the lost tasks, in place) or GLOBAL (every task, on a new
 *             epoch); null in records stored before it was kept (GLOBAL)
 * @param local the measurements of a local recovery, or null
 * @param otherTasksPaused whether tasks other than the lost ones were restarted or rolled back: always true for a
 *                         global recovery; for a local one, whether any of them reported fewer records taken in than
 *                         before the failure, or stopped reporting, by the time the recovered tasks caught up; null
 *                         until known
 */
public record Recovery(long id, TopologyId topology, HostId failedHost, List<TaskId> tasks, int epoch,
                       @Nullable Long restoredFrom, Instant lastHeartbeat, Instant detectedAt,
                       @Nullable Instant restoredAt, @Nullable Instant caughtUpAt, long detectionMillis,
                       @Nullable Long restoreMillis, @Nullable Long catchUpMillis, RecoveryStatus status,
                       @Nullable String failureReason, String message, long sinkRecordsTarget,
                       @Nullable DetectionCause detectionCause, @Nullable RecoveryMode mode,
                       @Nullable LocalRecoveryMeasures local, @Nullable Boolean otherTasksPaused) {

    public Recovery {
        tasks = List.copyOf(tasks);
    }

    /** A global recovery (or one whose mode is not known yet). */
    public Recovery(long id, TopologyId topology, HostId failedHost, List<TaskId> tasks, int epoch,
                    @Nullable Long restoredFrom, Instant lastHeartbeat, Instant detectedAt,
                    @Nullable Instant restoredAt, @Nullable Instant caughtUpAt, long detectionMillis,
                    @Nullable Long restoreMillis, @Nullable Long catchUpMillis, RecoveryStatus status,
                    @Nullable String failureReason, String message, long sinkRecordsTarget,
                    @Nullable DetectionCause detectionCause) {
        this(id, topology, failedHost, tasks, epoch, restoredFrom, lastHeartbeat, detectedAt, restoredAt, caughtUpAt,
                detectionMillis, restoreMillis, catchUpMillis, status, failureReason, message, sinkRecordsTarget,
                detectionCause, null, null, null);
    }

    /** A recovery whose detection cause is not known. */
    public Recovery(long id, TopologyId topology, HostId failedHost, List<TaskId> tasks, int epoch,
                    @Nullable Long restoredFrom, Instant lastHeartbeat, Instant detectedAt,
                    @Nullable Instant restoredAt, @Nullable Instant caughtUpAt, long detectionMillis,
                    @Nullable Long restoreMillis, @Nullable Long catchUpMillis, RecoveryStatus status,
                    @Nullable String failureReason, String message, long sinkRecordsTarget) {
        this(id, topology, failedHost, tasks, epoch, restoredFrom, lastHeartbeat, detectedAt, restoredAt, caughtUpAt,
                detectionMillis, restoreMillis, catchUpMillis, status, failureReason, message, sinkRecordsTarget, null);
    }

    /** Redeployed globally: every task restarted on epoch {@code newEpoch}. */
    Recovery restored(Instant at, int newEpoch, @Nullable Long checkpoint, long target, String text) {
        return new Recovery(id, topology, failedHost, tasks, newEpoch, checkpoint, lastHeartbeat, detectedAt, at,
                null, detectionMillis, Duration.between(detectedAt, at).toMillis(), null, RecoveryStatus.RECOVERING,
                null, text, target, detectionCause, RecoveryMode.GLOBAL, local, true);
    }

    /** The lost tasks run again, restored in place on the same epoch; the others never stopped. */
    Recovery restoredInPlace(Instant at, long checkpoint, LocalRecoveryMeasures measures, String text) {
        return new Recovery(id, topology, failedHost, tasks, epoch, checkpoint, lastHeartbeat, detectedAt, at,
                null, detectionMillis, Duration.between(detectedAt, at).toMillis(), null, RecoveryStatus.RECOVERING,
                null, text, sinkRecordsTarget, detectionCause, RecoveryMode.LOCAL, measures, null);
    }

    /** A local recovery's tasks caught up at {@code at}, as measured by them. */
    Recovery caughtUpInPlace(Instant at, LocalRecoveryMeasures measures, boolean othersPaused) {
        return new Recovery(id, topology, failedHost, tasks, epoch, restoredFrom, lastHeartbeat, detectedAt,
                restoredAt, at, detectionMillis, restoreMillis, Math.max(0, Duration.between(restoredAt, at).toMillis()),
                RecoveryStatus.RECOVERED, null, message, sinkRecordsTarget, detectionCause, mode, measures,
                othersPaused);
    }

    Recovery caughtUp(Instant at) {
        return new Recovery(id, topology, failedHost, tasks, epoch, restoredFrom, lastHeartbeat, detectedAt,
                restoredAt, at, detectionMillis, restoreMillis, Duration.between(restoredAt, at).toMillis(),
                RecoveryStatus.RECOVERED, null, message, sinkRecordsTarget, detectionCause, mode, local,
                otherTasksPaused);
    }

    Recovery abandoned(String reason, String text) {
        return new Recovery(id, topology, failedHost, tasks, epoch, restoredFrom, lastHeartbeat, detectedAt,
                restoredAt, caughtUpAt, detectionMillis, restoreMillis, catchUpMillis, RecoveryStatus.ABANDONED, reason,
                text, sinkRecordsTarget, detectionCause, mode, local, otherTasksPaused);
    }

    Recovery failed(String reason, String text) {
        return new Recovery(id, topology, failedHost, tasks, epoch, restoredFrom, lastHeartbeat, detectedAt,
                restoredAt, caughtUpAt, detectionMillis, restoreMillis, catchUpMillis, RecoveryStatus.FAILED, reason,
                text, sinkRecordsTarget, detectionCause, mode, local, otherTasksPaused);
    }

    /** The local protocol could not be applied; the recovery goes on globally, saying why. */
    Recovery fellBackToGlobal(String reason) {
        LocalRecoveryMeasures measures = local == null ? LocalRecoveryMeasures.fallback(reason) : local.fellBack(reason);
        return new Recovery(id, topology, failedHost, tasks, epoch, restoredFrom, lastHeartbeat, detectedAt,
                restoredAt, caughtUpAt, detectionMillis, restoreMillis, catchUpMillis, status, failureReason, message,
                sinkRecordsTarget, detectionCause, RecoveryMode.GLOBAL, measures, otherTasksPaused);
    }
}
