package io.steadfast.protocol.router;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One recovery of a topology after a host failure, as the router lists it in {@code GET /api/v1/recoveries}. The
 * members of its groups are flat in the JSON form.
 *
 * @param id          a sequence number, unique in the router
 * @param topology    the recovered topology
 * @param tasks       the topology's tasks that ran on the failed host
 * @param detection   what started it
 * @param restoration how the topology was brought back
 * @param timings     when it got how far
 * @param outcome     where it is
 * @param local       what a local recovery measured, or null
 */
@JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE) // its isX() queries are no JSON members
public record RecoveryView(long id, TopologyId topology, List<TaskId> tasks, @JsonUnwrapped Detection detection,
                           @JsonUnwrapped Restoration restoration, @JsonUnwrapped Timings timings,
                           @JsonUnwrapped Outcome outcome, @Nullable LocalRecoveryView local) {

    public static final String RECOVERED = "RECOVERED";
    public static final String FAILED = "FAILED";
    public static final String ABANDONED = "ABANDONED";
    /** The reason of a recovery ABANDONED because a later recovery of the same topology took over. */
    public static final String SUPERSEDED = "SUPERSEDED";

    public RecoveryView {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    /**
     * What started a recovery.
     *
     * @param failedHost      the host whose failure started it
     * @param lastHeartbeat   the failed host's last heartbeat
     * @param detectedAt      when the failure was detected
     * @param detectionMillis heartbeat silence until detection
     * @param detectionCause  what made the router declare the host DEAD (HEARTBEAT_TIMEOUT, DATA_PLANE_DISCONNECT,
     *                        ...), or null if the router did not keep it
     */
    public record Detection(HostId failedHost, Instant lastHeartbeat, Instant detectedAt, long detectionMillis,
                            @Nullable String detectionCause) {
    }

    /**
     * How the topology was brought back.
     *
     * @param epoch            the epoch of the redeployment
     * @param restoredFrom     the checkpoint every task was restored from, or null if none had completed (started
     *                         over)
     * @param mode             LOCAL (only the lost tasks, in place) or GLOBAL (every task, on a new epoch)
     * @param otherTasksPaused whether tasks other than the lost ones were restarted or rolled back, or null until
     *                         known
     * @param forecast         what the delay model predicted for either mode when the host failed, or null if it
     *                         could not tell
     */
    public record Restoration(int epoch, @Nullable CheckpointId restoredFrom, RecoveryMode mode,
                              @Nullable Boolean otherTasksPaused, @Nullable RecoveryForecasts forecast) {

        /** A restoration without a forecast. */
        public Restoration(int epoch, @Nullable CheckpointId restoredFrom, RecoveryMode mode,
                           @Nullable Boolean otherTasksPaused) {
            this(epoch, restoredFrom, mode, otherTasksPaused, null);
        }
    }

    /**
     * When a recovery got how far.
     *
     * @param restoredAt    when every host had answered the redeployment, or null
     * @param caughtUpAt    when the recovered tasks (LOCAL) or the sinks (GLOBAL) had caught up, or null
     * @param restoreMillis detection until the redeployment was answered, or null
     * @param catchUpMillis redeployment until the output caught up, or null
     */
    public record Timings(@Nullable Instant restoredAt, @Nullable Instant caughtUpAt, @Nullable Long restoreMillis,
                          @Nullable Long catchUpMillis) {
    }

    /**
     * Where a recovery is.
     *
     * @param status        RECOVERING, {@value #RECOVERED}, {@value #FAILED} (retried) or {@value #ABANDONED} (it can
     *                      never finish: the router restarted before it redeployed, a later recovery took over, or
     *                      the topology was cancelled)
     * @param failureReason why it FAILED (NO_LIVE_HOSTS, REDEPLOY_FAILED) or was ABANDONED (ROUTER_RESTARTED,
     *                      {@value #SUPERSEDED}, TOPOLOGY_CANCELLED), or null
     * @param message       what happened, for people
     */
    public record Outcome(String status, @Nullable String failureReason, String message) {
    }

    public boolean isLocal() {
        return restoration.mode() == RecoveryMode.LOCAL;
    }

    public boolean isRecovered() {
        return RECOVERED.equals(outcome.status());
    }

    public boolean isFailed() {
        return FAILED.equals(outcome.status());
    }

    public boolean isAbandoned() {
        return ABANDONED.equals(outcome.status());
    }

    /** ABANDONED because a later recovery of the same topology took over. */
    public boolean isSuperseded() {
        return isAbandoned() && SUPERSEDED.equals(outcome.failureReason());
    }

    /** Whether this recovery (a local one that got as far as placing the lost tasks) moved a task to {@code host}. */
    public boolean placedAnyTaskOn(HostId host) {
        return local != null && local.placedOn().containsValue(host);
    }
}
