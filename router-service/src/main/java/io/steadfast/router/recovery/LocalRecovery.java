package io.steadfast.router.recovery;

import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.RecoveryCatchUp;
import io.steadfast.runtime.task.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local recovery: the lost tasks of a LOCAL-mode topology restore in place on other hosts, on the same epoch, while
 * every other task keeps running ({@link LocalRecoverer} does the hosts' part). The recovery is RECOVERED once every
 * recovered task reports that it caught up; checkpointing waits for that, at most {@link #CHECKPOINTS_HELD_AT_MOST}.
 * Runs on the recovery thread.
 */
final class LocalRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(LocalRecovery.class);
    /**
     * How long checkpointing of a topology waits, after a local recovery restored its lost tasks, for them to catch
     * up. Checkpoints wait because their barriers would make tasks downstream of a recovered one align: a live task
     * would stop taking input from its live upstreams until the recovered one, still replaying, sent its barrier.
     */
    static final Duration CHECKPOINTS_HELD_AT_MOST = Duration.ofSeconds(10);

    private final RecoveryContext context;
    private final LocalRecoverer recoverer;
    /** Records taken in by each task that kept running, when a local recovery started; by recovery id. */
    private final Map<Long, Map<String, Long>> survivorsAtStart = new ConcurrentHashMap<>();

    LocalRecovery(RecoveryContext context, LocalRecoverer recoverer) {
        this.context = context;
        this.recoverer = recoverer;
    }

    /**
     * The checkpoint lost tasks restore from in place: the latest this router's coordinator completed, if on the
     * topology's current epoch. What is fetched ahead for a suspected host and what its recovery restores agree by
     * coming from here.
     */
    static Optional<CompletedCheckpoint> restorableInPlace(DeployedTopology topology,
                                                           Optional<CompletedCheckpoint> completed) {
        return completed.filter(done -> done.epoch() == topology.plan().epoch());
    }

    /**
     * Recovers the lost tasks of {@code recovery} in place, from the latest checkpoint completed on the topology's
     * current epoch; checkpointing stays paused until they caught up.
     *
     * @param onto the live host to restart every lost task on, or null to place them anew
     * @return empty if it was recovered; else the recovery, marked with why it falls back to a global one
     */
    Optional<Recovery> recover(DeployedTopology topology, Recovery recovery,
                               Optional<CompletedCheckpoint> knownCompleted, List<RegisteredHost> live,
                               @Nullable HostId onto) {
        Optional<CompletedCheckpoint> restorable = restorableInPlace(topology, knownCompleted);
        // The router's own last completion is what counts, not the checkpoint store's latest: only completions this
        // router announced let hosts truncate their logs, and it forgets them when it restarts (then nothing is
        // restorable and the recovery is global). A store one checkpoint ahead (a completion whose answer the router
        // did not get) leaves the logs whole from the router's checkpoint; a snapshot the store no longer holds makes
        // the target host refuse, and the recovery falls back to a global one.
        String reason;
        if (restorable.isEmpty()) {
            reason = "no checkpoint of epoch " + topology.plan().epoch() + " is known to have completed, so there is no"
                    + " snapshot the lost tasks could restore from while the others keep running";
        } else {
            reason = connectedAcrossLostHosts(topology, recovery.tasks()).orElse(null);
        }
        if (reason == null) {
            try {
                restoreInPlace(topology, recovery, restorable.get().checkpointId(), live, onto);
                return Optional.empty();
            } catch (LocalRecoverer.LocalRecoveryFailedException | HostCallException e) {
                survivorsAtStart.remove(recovery.id());
                reason = "a host could not take its part: " + e.getMessage();
            }
        }
        LOG.warn("Recovering topology '{}' globally instead of locally: {}", topology.id(), reason);
        Recovery fellBack = recovery.fellBackToGlobal(reason);
        context.log().save(fellBack);
        return Optional.of(fellBack);
    }

    private void restoreInPlace(DeployedTopology topology, Recovery recovery, long checkpointId,
                                List<RegisteredHost> live, @Nullable HostId onto) {
        LOG.info("Recovering tasks {} of '{}' in place from checkpoint {}, {} ms after detection", recovery.tasks(),
                topology.id(), checkpointId, Duration.between(recovery.detectedAt(), context.clock().instant())
                        .toMillis());
        survivorsAtStart.put(recovery.id(), survivorRecords(topology, recovery.tasks()));
        LocalRecoveryMeasures measures = recoverer.recover(topology, recovery.tasks(), checkpointId,
                context.coordinators().lastTriggeredId(topology.id()), live, onto);
        Instant restoredAt = context.clock().instant();
        context.coordinators().pause(topology.id(), "tasks " + recovery.tasks() + " recovered in place (recovery "
                + recovery.id() + ") are catching up; checkpointing resumes once they have, at the latest "
                + CHECKPOINTS_HELD_AT_MOST.toSeconds() + " s after they were restored");
        LocalRecoveryMeasures.TargetHosts hosts = measures.targetHosts();
        String text = "Tasks " + recovery.tasks() + " of topology '" + topology.id() + "' recovered in place"
                + " from checkpoint " + checkpointId + " on " + new TreeSet<>(measures.placedOn().values())
                + " (snapshots " + hosts.snapshotMillis() + " ms, logged decisions " + hosts.decisionMillis()
                + " ms / " + hosts.decisionBytes() + " bytes, start " + hosts.startMillis()
                + " ms); every other task kept running";
        context.log().saveWithoutWaiting(recovery.restoredInPlace(restoredAt, checkpointId, measures, text));
        LOG.info("{} ({} ms after detection)", text, Duration.between(recovery.detectedAt(), restoredAt).toMillis());
    }

    /** Whether {@code recovery} restored its tasks in place and now waits for them to catch up. */
    static boolean isRestoredInPlace(Recovery recovery) {
        return recovery.mode() == RecoveryMode.LOCAL && recovery.local() != null
                && recovery.local().requestedAt() != null;
    }

    /**
     * Marks a local recovery RECOVERED once every recovered task reports that it caught up; resumes the topology's
     * checkpoints if they have not after {@link #CHECKPOINTS_HELD_AT_MOST}.
     */
    void checkCatchUp(Recovery recovery, DeployedTopology topology) {
        markCaughtUp(recovery, topology);
        resumeCheckpointsHeldTooLong(recovery);
    }

    private void markCaughtUp(Recovery recovery, DeployedTopology topology) {
        LocalRecoveryMeasures measures = recovery.local();
        long slowest = 0;
        long records = 0;
        long bytes = 0;
        for (TaskId task : recovery.tasks()) {
            HostId host = topology.placement().get(task);
            Optional<RecoveryCatchUp> catchUp = Optional.ofNullable(host).flatMap(context.detector()::host)
                    .flatMap(registered -> registered.report(task.toString())).map(TaskReport::catchUp);
            if (catchUp.isEmpty()) {
                return;
            }
            slowest = Math.max(slowest, catchUp.get().millis());
            records += catchUp.get().records();
            bytes += catchUp.get().bytes();
        }
        Instant caughtUpAt = measures.requestedAt().plusMillis(slowest);
        Recovery done = recovery.caughtUpInPlace(caughtUpAt, measures.caughtUp(records, bytes),
                Boolean.TRUE.equals(survivorsPaused(recovery, topology)));
        context.log().save(done);
        context.coordinators().resume(recovery.topology());
        LOG.info("Tasks {} of '{}' caught up {} ms after the router asked for their recovery ({} records, {} bytes"
                + " replayed); other tasks paused: {}", recovery.tasks(), recovery.topology(), slowest, records, bytes,
                done.otherTasksPaused());
    }

    /** Resumes the checkpoints of a topology whose tasks recovered in place did not catch up in time. */
    private void resumeCheckpointsHeldTooLong(Recovery recovery) {
        Optional<Recovery> now = context.log().find(recovery.id());
        if (now.isPresent() && now.get().status() == RecoveryStatus.RECOVERING
                && context.coordinators().isPaused(recovery.topology())
                && Duration.between(recovery.restoredAt(), context.clock().instant())
                .compareTo(CHECKPOINTS_HELD_AT_MOST) >= 0) {
            LOG.warn("Tasks {} of '{}' have not caught up {} s after they were restored in place; checkpointing"
                    + " resumes anyway", recovery.tasks(), recovery.topology(), CHECKPOINTS_HELD_AT_MOST.toSeconds());
            context.coordinators().resume(recovery.topology());
        }
    }

    /**
     * Why lost tasks cannot be recovered locally when a channel joins two of them that ran on different hosts: the
     * upstream one's decisions travelled only in its frames to the downstream one, lost too, so neither a live host
     * nor (for what was not shipped yet) the checkpoint-service holds them all (see docs/design.md, "Local
     * recovery"). Tasks lost with one host need no such care: their frames to other hosts carry the decisions of
     * their same-host upstream tasks.
     */
    private static Optional<String> connectedAcrossLostHosts(DeployedTopology topology, List<TaskId> lost) {
        return topology.plan().channels().stream()
                .filter(channel -> lost.contains(channel.from()) && lost.contains(channel.to())
                        && !topology.placement().get(channel.from()).equals(topology.placement().get(channel.to())))
                .findFirst().map(channel -> "tasks lost on different hosts at once feed each other (" + channel.from()
                        + " on " + topology.placement().get(channel.from()) + " -> " + channel.to() + " on "
                        + topology.placement().get(channel.to()) + "), so the upstream task's logged decisions may"
                        + " be lost with its receivers");
    }

    /** The records each task of the topology not in {@code lost} had taken in, from its host's latest report. */
    private Map<String, Long> survivorRecords(DeployedTopology topology, List<TaskId> lost) {
        Map<String, Long> records = new TreeMap<>();
        topology.placement().forEach((task, host) -> {
            if (!lost.contains(task)) {
                context.detector().host(host).flatMap(registered -> registered.report(task.toString()))
                        .ifPresent(report -> records.put(task.toString(), report.recordsIn()));
            }
        });
        return records;
    }

    /**
     * Whether a task that kept running during a local recovery was restarted or rolled back: it reports fewer
     * records taken in than when the recovery started, or no longer reports. Null if that was not recorded (the
     * router restarted since).
     */
    private @Nullable Boolean survivorsPaused(Recovery recovery, DeployedTopology topology) {
        Map<String, Long> before = survivorsAtStart.remove(recovery.id());
        if (before == null) {
            return null;
        }
        for (Map.Entry<String, Long> task : before.entrySet()) {
            HostId host = topology.placement().get(TaskId.parse(task.getKey()));
            Optional<TaskReport> now = host == null ? Optional.empty()
                    : context.detector().host(host).flatMap(registered -> registered.report(task.getKey()));
            if (now.isEmpty() || now.get().recordsIn() < task.getValue()
                    || now.get().status() == TaskStatus.FAILED || now.get().status() == TaskStatus.CANCELLED) {
                LOG.warn("Task {} did not keep running through recovery {}: {}", task.getKey(), recovery.id(),
                        now.map(TaskReport::toString).orElse("no longer reported"));
                return true;
            }
        }
        return false;
    }
}
