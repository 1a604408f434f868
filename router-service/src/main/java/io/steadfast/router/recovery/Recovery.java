package io.steadfast.router.recovery;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One recovery of a topology after a host failure, local or global. Immutable; each step makes a new copy. Made with
 * {@link #builder}; the flat accessors ({@link #status()}, {@link #restoredAt()}, ...) read the groups, whose members
 * its JSON form holds flat too.
 *
 * @param id          a sequence number, unique in this router
 * @param topology    the recovered topology
 * @param tasks       the topology's tasks that ran on the failed host
 * @param detection   what started it
 * @param restoration how the topology was brought back
 * @param timings     when it got how far
 * @param outcome     where it is
 * @param local       the measurements of a local recovery, or null
 */
public record Recovery(long id, TopologyId topology, List<TaskId> tasks, @JsonUnwrapped Detection detection,
                       @JsonUnwrapped Restoration restoration, @JsonUnwrapped Timings timings,
                       @JsonUnwrapped Outcome outcome, @Nullable LocalRecoveryMeasures local) {

    /**
     * What started a recovery.
     *
     * @param failedHost      the host whose failure started it
     * @param lastHeartbeat   the failed host's last heartbeat
     * @param detectedAt      when the failure was detected
     * @param detectionMillis heartbeat silence until detection
     * @param cause           what made the router declare the host DEAD (null in records stored before it was kept)
     */
    public record Detection(HostId failedHost, Instant lastHeartbeat, Instant detectedAt, long detectionMillis,
                            @JsonProperty("detectionCause") @Nullable DetectionCause cause) {

        public Detection {
            Objects.requireNonNull(failedHost, "failedHost");
            Objects.requireNonNull(lastHeartbeat, "lastHeartbeat");
            Objects.requireNonNull(detectedAt, "detectedAt");
        }
    }

    /**
     * How the topology was brought back.
     *
     * @param mode              LOCAL (only the lost tasks, in place) or GLOBAL (every task, on a new epoch); null in
     *                          records stored before it was kept (GLOBAL)
     * @param epoch             the epoch of the redeployment
     * @param restoredFrom      the checkpoint every task was restored from, or null if none had completed (started
     *                          over)
     * @param sinkRecordsTarget records the sinks of the new deployment must take in to have caught up
     * @param otherTasksPaused  whether tasks other than the lost ones were restarted or rolled back: always true for a
     *                          global recovery; for a local one, whether any of them reported fewer records taken in
     *                          than before the failure, or stopped reporting, by the time the recovered tasks caught
     *                          up; null until known
     * @param forecast          what the delay model predicted for either mode when the host failed, or null (no
     *                          prediction could be made, or a record stored before predictions were kept)
     */
    public record Restoration(@Nullable RecoveryMode mode, int epoch, @Nullable Long restoredFrom,
                              long sinkRecordsTarget, @Nullable Boolean otherTasksPaused,
                              @Nullable RecoveryForecasts forecast) {

        /** A restoration without a forecast. */
        public Restoration(@Nullable RecoveryMode mode, int epoch, @Nullable Long restoredFrom, long sinkRecordsTarget,
                           @Nullable Boolean otherTasksPaused) {
            this(mode, epoch, restoredFrom, sinkRecordsTarget, otherTasksPaused, null);
        }

        /** This restoration in {@code newMode} from {@code checkpoint}, the rest as it was. */
        Restoration as(RecoveryMode newMode, int newEpoch, @Nullable Long checkpoint, long target,
                       @Nullable Boolean othersPaused) {
            return new Restoration(newMode, newEpoch, checkpoint, target, othersPaused, forecast);
        }
    }

    /**
     * When a recovery got how far.
     *
     * @param restoredAt    when every host had answered the redeployment, or null
     * @param caughtUpAt    when every sink had taken in as many records as before the failure (or all finished), or
     *                      null
     * @param restoreMillis detection until the redeployment was answered, or null
     * @param catchUpMillis redeployment until the output caught up, or null
     */
    public record Timings(@Nullable Instant restoredAt, @Nullable Instant caughtUpAt, @Nullable Long restoreMillis,
                          @Nullable Long catchUpMillis) {

        static final Timings NONE = new Timings(null, null, null, null);
    }

    /**
     * Where a recovery is.
     *
     * @param status        RECOVERING, RECOVERED, FAILED or ABANDONED
     * @param failureReason why it FAILED (NO_LIVE_HOSTS, REDEPLOY_FAILED) or was ABANDONED (ROUTER_RESTARTED,
     *                      SUPERSEDED, TOPOLOGY_CANCELLED), or null
     * @param message       what happened, for people
     */
    public record Outcome(RecoveryStatus status, @Nullable String failureReason, String message) {

        public Outcome {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(message, "message");
        }
    }

    public Recovery {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(detection, "detection");
        Objects.requireNonNull(restoration, "restoration");
        Objects.requireNonNull(timings, "timings");
        Objects.requireNonNull(outcome, "outcome");
        tasks = List.copyOf(tasks);
    }

    public static Builder builder() {
        return new Builder();
    }

    public HostId failedHost() {
        return detection.failedHost();
    }

    public Instant lastHeartbeat() {
        return detection.lastHeartbeat();
    }

    public Instant detectedAt() {
        return detection.detectedAt();
    }

    public long detectionMillis() {
        return detection.detectionMillis();
    }

    public @Nullable DetectionCause detectionCause() {
        return detection.cause();
    }

    public @Nullable RecoveryMode mode() {
        return restoration.mode();
    }

    public int epoch() {
        return restoration.epoch();
    }

    public @Nullable Long restoredFrom() {
        return restoration.restoredFrom();
    }

    public long sinkRecordsTarget() {
        return restoration.sinkRecordsTarget();
    }

    public @Nullable RecoveryForecasts forecast() {
        return restoration.forecast();
    }

    public @Nullable Boolean otherTasksPaused() {
        return restoration.otherTasksPaused();
    }

    public @Nullable Instant restoredAt() {
        return timings.restoredAt();
    }

    public @Nullable Instant caughtUpAt() {
        return timings.caughtUpAt();
    }

    public @Nullable Long restoreMillis() {
        return timings.restoreMillis();
    }

    public @Nullable Long catchUpMillis() {
        return timings.catchUpMillis();
    }

    public RecoveryStatus status() {
        return outcome.status();
    }

    public @Nullable String failureReason() {
        return outcome.failureReason();
    }

    public String message() {
        return outcome.message();
    }

    /** Redeployed globally: every task restarted on epoch {@code newEpoch}. */
    Recovery restored(Instant at, int newEpoch, @Nullable Long checkpoint, long target, String text) {
        return new Recovery(id, topology, tasks, detection,
                restoration.as(RecoveryMode.GLOBAL, newEpoch, checkpoint, target, true), restoredTimings(at),
                new Outcome(RecoveryStatus.RECOVERING, null, text), local);
    }

    /** The lost tasks run again, restored in place on the same epoch; the others never stopped. */
    Recovery restoredInPlace(Instant at, long checkpoint, LocalRecoveryMeasures measures, String text) {
        return new Recovery(id, topology, tasks, detection,
                restoration.as(RecoveryMode.LOCAL, restoration.epoch(), checkpoint, restoration.sinkRecordsTarget(),
                        null), restoredTimings(at), new Outcome(RecoveryStatus.RECOVERING, null, text), measures);
    }

    /** A local recovery's tasks caught up at {@code at}, as measured by them. */
    Recovery caughtUpInPlace(Instant at, LocalRecoveryMeasures measures, boolean othersPaused) {
        Restoration paused = restoration.as(restoration.mode(), restoration.epoch(), restoration.restoredFrom(),
                restoration.sinkRecordsTarget(), othersPaused);
        return new Recovery(id, topology, tasks, detection, paused,
                caughtUpTimings(at, Math.max(0, Duration.between(restoredAt(), at).toMillis())),
                new Outcome(RecoveryStatus.RECOVERED, null, message()), measures);
    }

    Recovery caughtUp(Instant at) {
        return new Recovery(id, topology, tasks, detection, restoration,
                caughtUpTimings(at, Duration.between(restoredAt(), at).toMillis()),
                new Outcome(RecoveryStatus.RECOVERED, null, message()), local);
    }

    Recovery abandoned(String reason, String text) {
        return new Recovery(id, topology, tasks, detection, restoration, timings,
                new Outcome(RecoveryStatus.ABANDONED, reason, text), local);
    }

    Recovery failed(String reason, String text) {
        return new Recovery(id, topology, tasks, detection, restoration, timings,
                new Outcome(RecoveryStatus.FAILED, reason, text), local);
    }

    /** The local protocol could not be applied; the recovery goes on globally, saying why. */
    Recovery fellBackToGlobal(String reason) {
        LocalRecoveryMeasures measures = local == null ? LocalRecoveryMeasures.fallback(reason) : local.fellBack(reason);
        return new Recovery(id, topology, tasks, detection, restoration.as(RecoveryMode.GLOBAL, restoration.epoch(),
                restoration.restoredFrom(), restoration.sinkRecordsTarget(), restoration.otherTasksPaused()), timings,
                outcome, measures);
    }

    private Timings restoredTimings(Instant at) {
        return new Timings(at, null, Duration.between(detectedAt(), at).toMillis(), null);
    }

    private Timings caughtUpTimings(Instant at, long catchUpMillis) {
        return new Timings(restoredAt(), at, restoreMillis(), catchUpMillis);
    }

    /**
     * Builds a {@link Recovery}, checking on {@link #build} that it names its topology, failed host, tasks, heartbeat,
     * detection time and message. Not thread-safe.
     */
    public static final class Builder {

        private long id;
        private @Nullable TopologyId topology;
        private List<TaskId> tasks = List.of();
        private @Nullable HostId failedHost;
        private @Nullable Instant lastHeartbeat;
        private @Nullable Instant detectedAt;
        private long detectionMillis;
        private @Nullable DetectionCause detectionCause;
        private Restoration restoration = new Restoration(null, 0, null, 0, null);
        private Timings timings = Timings.NONE;
        private RecoveryStatus status = RecoveryStatus.RECOVERING;
        private @Nullable String failureReason;
        private @Nullable String message;
        private @Nullable LocalRecoveryMeasures local;

        private Builder() {
        }

        public Builder id(long id) {
            this.id = id;
            return this;
        }

        public Builder topology(TopologyId topology) {
            this.topology = topology;
            return this;
        }

        /** The topology's tasks that ran on the failed host. */
        public Builder tasks(List<TaskId> tasks) {
            this.tasks = tasks;
            return this;
        }

        /** The failed host, its last heartbeat, and when its failure was detected. */
        public Builder failure(HostId failedHost, Instant lastHeartbeat, Instant detectedAt) {
            this.failedHost = failedHost;
            this.lastHeartbeat = lastHeartbeat;
            this.detectedAt = detectedAt;
            return this;
        }

        /** Heartbeat silence until detection, and what made the router declare the host DEAD (or null). */
        public Builder detection(long detectionMillis, @Nullable DetectionCause cause) {
            this.detectionMillis = detectionMillis;
            this.detectionCause = cause;
            return this;
        }

        /** The mode it sets out in, the epoch it recovers, and the records the sinks must take in to catch up. */
        public Builder restoration(@Nullable RecoveryMode mode, int epoch, long sinkRecordsTarget) {
            this.restoration = new Restoration(mode, epoch, null, sinkRecordsTarget, null, restoration.forecast());
            return this;
        }

        public Builder restoration(Restoration restoration) {
            this.restoration = restoration;
            return this;
        }

        /** What the delay model predicted when the host failed. */
        public Builder forecast(@Nullable RecoveryForecasts forecast) {
            this.restoration = new Restoration(restoration.mode(), restoration.epoch(), restoration.restoredFrom(),
                    restoration.sinkRecordsTarget(), restoration.otherTasksPaused(), forecast);
            return this;
        }

        public Builder timings(Timings timings) {
            this.timings = timings;
            return this;
        }

        public Builder status(RecoveryStatus status, @Nullable String failureReason, String message) {
            this.status = status;
            this.failureReason = failureReason;
            this.message = message;
            return this;
        }

        public Builder local(@Nullable LocalRecoveryMeasures local) {
            this.local = local;
            return this;
        }

        /** @throws IllegalStateException naming what is missing */
        public Recovery build() {
            if (topology == null || failedHost == null || lastHeartbeat == null || detectedAt == null
                    || message == null) {
                throw new IllegalStateException("A recovery needs topology(...), failure(host, lastHeartbeat,"
                        + " detectedAt) and status(..., message); was topology=" + topology + ", failedHost="
                        + failedHost + ", lastHeartbeat=" + lastHeartbeat + ", detectedAt=" + detectedAt
                        + ", message=" + message);
            }
            if (status == RecoveryStatus.RECOVERED && timings.caughtUpAt() == null) {
                throw new IllegalStateException("Recovery " + id + " is RECOVERED but its timings name no"
                        + " caughtUpAt; give timings(...) with the time its output caught up");
            }
            return new Recovery(id, topology, tasks, new Detection(failedHost, lastHeartbeat, detectedAt,
                    detectionMillis, detectionCause), restoration, timings, new Outcome(status, failureReason, message),
                    local);
        }
    }
}
