package io.steadfast.cluster.client;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One recovery as the router lists it in {@code GET /api/v1/recoveries}. The members of its groups are flat in the
 * JSON; the accessors named after them ({@link #status()}, {@link #failedHost()}, ...) read the groups.
 *
 * @param tasks the tasks that ran on the failed host
 * @param local what a local recovery measured, or null
 */
public record RecoveryView(long id, TopologyId topology, List<String> tasks, @JsonUnwrapped Detection detection,
        @JsonUnwrapped Restoration restoration, @JsonUnwrapped Timings timings, @JsonUnwrapped Outcome outcome,
        @Nullable LocalMeasures local) {

    /**
     * What started the recovery.
     *
     * @param detectionMillis heartbeat silence until the failure was detected
     * @param detectionCause what made the router declare the host DEAD: HEARTBEAT_TIMEOUT or DATA_PLANE_DISCONNECT
     */
    public record Detection(HostId failedHost, @Nullable Instant detectedAt, long detectionMillis,
            @Nullable String detectionCause) {
    }

    /**
     * How the topology was brought back.
     *
     * @param restoredFrom the checkpoint every task restored from, or null if none had completed (started over)
     * @param mode LOCAL (only the lost tasks restored, in place) or GLOBAL
     * @param otherTasksPaused whether tasks other than the lost ones were restarted or rolled back, or null until
     *                         known
     */
    public record Restoration(int epoch, @Nullable Long restoredFrom, @Nullable String mode,
            @Nullable Boolean otherTasksPaused) {
    }

    /**
     * When the recovery got how far.
     *
     * @param restoreMillis detection until the redeployment was answered, or null
     * @param catchUpMillis redeployment until the sinks caught up, or null
     * @param caughtUpAt when the recovered tasks (LOCAL) or the sinks (GLOBAL) had caught up, or null
     */
    public record Timings(@Nullable Long restoreMillis, @Nullable Long catchUpMillis, @Nullable Instant caughtUpAt) {
    }

    /**
     * Where the recovery is.
     *
     * @param status RECOVERING, RECOVERED, FAILED (retried) or ABANDONED (it can never finish: the router restarted
     *               before it redeployed, a later recovery took over, or the topology was cancelled)
     */
    public record Outcome(String status, @Nullable String failureReason, @Nullable String message) {
    }

    /**
     * What a local recovery measured (see the router's {@code LocalRecoveryMeasures}).
     *
     * @param requestedAt when the router asked the target hosts to recover the lost tasks
     * @param placedOn where each lost task runs now
     * @param targetHosts the longest time the target hosts took for each step, and what they replay (flat in the JSON)
     * @param replayedRecords records the recovered tasks took in until they had caught up, or null
     * @param replayedBytes input bytes they took in until then, or null
     * @param fallbackReason why the topology was recovered globally instead, or null
     */
    public record LocalMeasures(@Nullable Instant requestedAt, Map<String, String> placedOn, int standbyHosts,
            @JsonUnwrapped TargetHosts targetHosts, @Nullable Long replayedRecords, @Nullable Long replayedBytes,
            @Nullable String fallbackReason) {

        public LocalMeasures {
            placedOn = placedOn == null ? Map.of() : Map.copyOf(placedOn);
        }
    }

    /** What the target hosts of a local recovery answered. */
    public record TargetHosts(long snapshotMillis, long decisionMillis, long startMillis, long decisionBytes) {
    }

    public static final String RECOVERED = "RECOVERED";
    public static final String FAILED = "FAILED";
    public static final String ABANDONED = "ABANDONED";
    /** The reason of a recovery ABANDONED because a later recovery of the same topology took over. */
    public static final String SUPERSEDED = "SUPERSEDED";

    public RecoveryView {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    public HostId failedHost() {
        return detection.failedHost();
    }

    public @Nullable Instant detectedAt() {
        return detection.detectedAt();
    }

    public long detectionMillis() {
        return detection.detectionMillis();
    }

    public @Nullable String detectionCause() {
        return detection.detectionCause();
    }

    public int epoch() {
        return restoration.epoch();
    }

    public @Nullable Long restoredFrom() {
        return restoration.restoredFrom();
    }

    public @Nullable String mode() {
        return restoration.mode();
    }

    public @Nullable Boolean otherTasksPaused() {
        return restoration.otherTasksPaused();
    }

    public @Nullable Long restoreMillis() {
        return timings.restoreMillis();
    }

    public @Nullable Long catchUpMillis() {
        return timings.catchUpMillis();
    }

    public @Nullable Instant caughtUpAt() {
        return timings.caughtUpAt();
    }

    public String status() {
        return outcome.status();
    }

    public @Nullable String failureReason() {
        return outcome.failureReason();
    }

    public @Nullable String message() {
        return outcome.message();
    }

    public boolean isLocal() {
        return "LOCAL".equals(mode());
    }

    public boolean isRecovered() {
        return RECOVERED.equals(status());
    }

    public boolean isFailed() {
        return FAILED.equals(status());
    }

    public boolean isAbandoned() {
        return ABANDONED.equals(status());
    }

    /** ABANDONED because a later recovery of the same topology took over. */
    public boolean isSuperseded() {
        return isAbandoned() && SUPERSEDED.equals(failureReason());
    }

    /** Whether this recovery (a local one that got as far as placing the lost tasks) moved a task to {@code host}. */
    public boolean placedAnyTaskOn(HostId host) {
        return local != null && local.placedOn().containsValue(host.value());
    }
}
