package io.steadfast.cluster.client;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One recovery as the router lists it in {@code GET /api/v1/recoveries}.
 *
 * @param tasks the tasks that ran on the failed host
 * @param restoredFrom the checkpoint every task restored from, or null if none had completed (started over)
 * @param detectionMillis heartbeat silence until the failure was detected
 * @param restoreMillis detection until the redeployment was answered, or null
 * @param catchUpMillis redeployment until the sinks caught up, or null
 * @param status RECOVERING, RECOVERED, FAILED (retried) or ABANDONED (it can never finish: the router restarted
 *               before it redeployed, a later recovery took over, or the topology was cancelled)
 * @param detectionCause what made the router declare the host DEAD: HEARTBEAT_TIMEOUT or DATA_PLANE_DISCONNECT
 * @param mode LOCAL (only the lost tasks restored, in place) or GLOBAL
 * @param caughtUpAt when the recovered tasks (LOCAL) or the sinks (GLOBAL) had caught up, or null
 * @param local what a local recovery measured, or null
 * @param otherTasksPaused whether tasks other than the lost ones were restarted or rolled back, or null until known
 */
public record RecoveryView(long id, TopologyId topology, HostId failedHost, List<String> tasks, int epoch,
        @Nullable Long restoredFrom, @Nullable Instant detectedAt, long detectionMillis, @Nullable Long restoreMillis,
        @Nullable Long catchUpMillis, String status, @Nullable String failureReason, @Nullable String message,
        @Nullable String detectionCause, @Nullable String mode, @Nullable Instant caughtUpAt,
        @Nullable LocalMeasures local, @Nullable Boolean otherTasksPaused) {

    /**
     * What a local recovery measured (see the router's {@code LocalRecoveryMeasures}).
     *
     * @param requestedAt when the router asked the target hosts to recover the lost tasks
     * @param placedOn where each lost task runs now
     * @param replayedRecords records the recovered tasks took in until they had caught up, or null
     * @param replayedBytes input bytes they took in until then, or null
     * @param fallbackReason why the topology was recovered globally instead, or null
     */
    public record LocalMeasures(@Nullable Instant requestedAt, Map<String, String> placedOn, int standbyHosts,
            long snapshotMillis, long decisionMillis, long startMillis, long decisionBytes,
            @Nullable Long replayedRecords, @Nullable Long replayedBytes, @Nullable String fallbackReason) {

        public LocalMeasures {
            placedOn = placedOn == null ? Map.of() : Map.copyOf(placedOn);
        }
    }

    public static final String RECOVERED = "RECOVERED";
    public static final String FAILED = "FAILED";
    public static final String ABANDONED = "ABANDONED";
    /** The reason of a recovery ABANDONED because a later recovery of the same topology took over. */
    public static final String SUPERSEDED = "SUPERSEDED";

    public RecoveryView {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    /** A recovery as listed by a router that does not say its mode. */
    public RecoveryView(long id, TopologyId topology, HostId failedHost, List<String> tasks, int epoch,
            @Nullable Long restoredFrom, @Nullable Instant detectedAt, long detectionMillis, @Nullable Long restoreMillis,
            @Nullable Long catchUpMillis, String status, @Nullable String failureReason, @Nullable String message,
            @Nullable String detectionCause) {
        this(id, topology, failedHost, tasks, epoch, restoredFrom, detectedAt, detectionMillis, restoreMillis,
                catchUpMillis, status, failureReason, message, detectionCause, null, null, null, null);
    }

    public boolean isLocal() {
        return "LOCAL".equals(mode);
    }

    public boolean isRecovered() {
        return RECOVERED.equals(status);
    }

    public boolean isFailed() {
        return FAILED.equals(status);
    }

    public boolean isAbandoned() {
        return ABANDONED.equals(status);
    }

    /** ABANDONED because a later recovery of the same topology took over. */
    public boolean isSuperseded() {
        return isAbandoned() && SUPERSEDED.equals(failureReason);
    }

    /** Whether this recovery (a local one that got as far as placing the lost tasks) moved a task to {@code host}. */
    public boolean placedAnyTaskOn(HostId host) {
        return local != null && local.placedOn().containsValue(host.value());
    }
}
