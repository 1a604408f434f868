package io.steadfast.checkpoint.checkpoint;

import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.ALREADY_EXISTS;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.MISSING_ACKS;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.MISSING_SNAPSHOTS;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.NEWER_INCARNATION;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.NOT_FOUND;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.NOT_PENDING;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.SIZE_MISMATCH;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.SUPERSEDED_INCARNATION;
import static io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason.UNEXPECTED_TASK;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.snapshot.SnapshotKey;
import io.steadfast.checkpoint.snapshot.SnapshotStore;
import io.steadfast.checkpoint.snapshot.StoredSnapshot;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a checkpoint as the coordinator drives it: created PENDING, acknowledged task by task (each ack
 * after the task's snapshot is stored), then completed or failed. A completion has retention applied after it is
 * answered, on the executor given (see {@link #CheckpointLifecycle(CheckpointStore, SnapshotStore, RetentionPolicy,
 * CheckpointMeters, Clock, Executor)}).
 */
public class CheckpointLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CheckpointLifecycle.class);

    private final CheckpointStore checkpoints;
    private final SnapshotStore snapshots;
    private final RetentionPolicy retention;
    private final CheckpointMeters meters;
    private final Clock clock;

    private final Executor retentionRuns;
    private final Set<TopologyId> retentionDue = ConcurrentHashMap.newKeySet();

    /** Applies retention within each completion, before it returns. */
    public CheckpointLifecycle(CheckpointStore checkpoints, SnapshotStore snapshots, RetentionPolicy retention,
            CheckpointMeters meters, Clock clock) {
        this(checkpoints, snapshots, retention, meters, clock, Runnable::run);
    }

    /**
     * @param retentionRuns where retention runs after each completion: off the completion's path, whose caller (the
     *                      router) announces the checkpoint only once it is recorded. Deleting the older records and
     *                      snapshots took the embedded store three of its seven requests and two of its three commits
     *                      per completion. Runs for one topology asked for while one waits to start are one run.
     */
    public CheckpointLifecycle(CheckpointStore checkpoints, SnapshotStore snapshots, RetentionPolicy retention,
            CheckpointMeters meters, Clock clock, Executor retentionRuns) {
        this.checkpoints = checkpoints;
        this.snapshots = snapshots;
        this.retention = retention;
        this.meters = meters;
        this.clock = clock;
        this.retentionRuns = retentionRuns;
    }

    /**
     * Records a PENDING checkpoint that every one of {@code tasks} must acknowledge.
     *
     * @param incarnations the incarnation of each task whose snapshot the checkpoint takes (the copy that runs when it
     *                     is triggered); 0 for a task not named
     */
    public CheckpointRecord create(TopologyId topology, CheckpointId checkpointId, List<TaskId> tasks,
            Map<TaskId, Integer> incarnations, @Nullable Instant triggeredAt) {
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("tasks is empty: list every task of topology '" + topology
                    + "' that must acknowledge checkpoint " + checkpointId);
        }
        for (TaskId task : tasks) {
            if (!task.topology().equals(topology)) {
                throw new IllegalArgumentException("tasks: task '" + task + "' belongs to topology '"
                        + task.topology() + "', not '" + topology + "'");
            }
        }
        if (new HashSet<>(tasks).size() != tasks.size()) {
            throw new IllegalArgumentException("tasks lists a task more than once: " + tasks);
        }
        incarnations.forEach((task, incarnation) -> {
            if (!tasks.contains(task)) {
                throw new IllegalArgumentException("incarnations names task '" + task + "', which is not one of the"
                        + " tasks of checkpoint " + checkpointId + ": " + tasks);
            }
            if (incarnation < 0) {
                throw new IllegalArgumentException("incarnations gives task '" + task + "' incarnation " + incarnation
                        + "; a task's first incarnation is 0");
            }
        });
        Instant at = (triggeredAt != null ? triggeredAt : clock.instant()).truncatedTo(ChronoUnit.MILLIS);
        CheckpointRecord record = CheckpointRecord.pending(topology, checkpointId, tasks, incarnations, at);
        if (!checkpoints.create(record)) {
            throw rejected(ALREADY_EXISTS, topology, checkpointId, List.of(), "Checkpoint " + checkpointId
                    + " of topology '" + topology + "' exists already; the coordinator must use a new checkpoint id");
        }
        return record;
    }

    public CheckpointRecord get(TopologyId topology, CheckpointId checkpointId) {
        return checkpoints.find(topology, checkpointId).orElseThrow(() -> notFound(topology, checkpointId));
    }

    public List<CheckpointRecord> list(TopologyId topology) {
        return checkpoints.list(topology);
    }

    public Optional<CheckpointRecord> latestCompleted(TopologyId topology) {
        return checkpoints.latestCompleted(topology);
    }

    /**
     * Records a task's ack. The task's snapshot must be stored; {@code sizeBytes}, when given, must be its size.
     */
    public CheckpointRecord ack(TopologyId topology, CheckpointId checkpointId, TaskId task,
            @Nullable Long sizeBytes, long syncMillis, long asyncMillis) {
        CheckpointRecord record = get(topology, checkpointId);
        requirePending(record, "acknowledge it");
        requireExpected(record, task);
        StoredSnapshot snapshot = snapshots.find(SnapshotKey.of(topology, checkpointId, task))
                .orElseThrow(() -> rejected(MISSING_SNAPSHOTS, topology, checkpointId, List.of(task),
                        "Task '" + task + "' acknowledged checkpoint " + checkpointId + " of topology '" + topology
                                + "' but its snapshot is not stored; upload it with PUT /api/v1/snapshots/"
                                + topology + "/" + checkpointId + "?task=" + task + " before acknowledging"));
        requireSize(record, task, sizeBytes, snapshot);
        TaskAck ack = new TaskAck(task, snapshot.sizeBytes(), clock.instant().truncatedTo(ChronoUnit.MILLIS),
                syncMillis, asyncMillis);
        return checkpoints.addAck(topology, checkpointId, ack)
                .orElseThrow(() -> changedMeanwhile(topology, checkpointId, "acknowledge it"));
    }

    private static void requireExpected(CheckpointRecord record, TaskId task) {
        if (!record.expectedTasks().contains(task)) {
            throw rejected(UNEXPECTED_TASK, record.topology(), record.checkpointId(), List.of(task), "Task '" + task
                    + "' is not one of the tasks of checkpoint " + record.checkpointId() + " of topology '"
                    + record.topology() + "': " + record.expectedTasks());
        }
    }

    private static void requireSize(CheckpointRecord record, TaskId task, @Nullable Long sizeBytes,
            StoredSnapshot snapshot) {
        if (sizeBytes != null && sizeBytes != snapshot.sizeBytes()) {
            throw rejected(SIZE_MISMATCH, record.topology(), record.checkpointId(), List.of(task), "Task '" + task
                    + "' acknowledged " + sizeBytes + " bytes but its stored snapshot has " + snapshot.sizeBytes()
                    + " bytes; upload the snapshot again, then acknowledge");
        }
    }

    /** One task's ack handed over with the completion (see {@link #completeWithAcks}). */
    public record AckRequest(TaskId task, @Nullable Long sizeBytes, long syncMillis, long asyncMillis) {
    }

    /**
     * Records every ack and completes the checkpoint in one write, with the checks {@link #ack} and {@link #complete}
     * make: what a coordinator that collected the acks itself sends once (one call, not one per task). Tasks acked
     * earlier keep their ack unless listed again. Completing a completed checkpoint again returns it unchanged.
     */
    public CheckpointRecord completeWithAcks(TopologyId topology, CheckpointId checkpointId, List<AckRequest> acks) {
        CheckpointRecord record = get(topology, checkpointId);
        if (record.status() == CheckpointStatus.COMPLETED) {
            return record;
        }
        requirePending(record, "complete it");
        Map<TaskId, StoredSnapshot> stored = storedSnapshots(topology, checkpointId);
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Map<TaskId, TaskAck> merged = merged(record, acks, stored, now, true);
        List<TaskId> missingAcks = record.expectedTasks().stream().filter(task -> !merged.containsKey(task)).toList();
        requireAcksAndSnapshots(record, missingAcks, stored);
        return markCompleted(record, stored, now, List.copyOf(merged.values()));
    }

    private Map<TaskId, StoredSnapshot> storedSnapshots(TopologyId topology, CheckpointId checkpointId) {
        return snapshots.list(topology, checkpointId).stream()
                .collect(Collectors.toMap(StoredSnapshot::task, Function.identity()));
    }

    /**
     * The record's acks with {@code acks} added (replacing a task's earlier one), each sized by its stored snapshot
     * (0 if none is stored); an ack of a task the checkpoint does not expect is refused, as is, if {@code checkSizes},
     * one whose size differs from its stored snapshot's.
     */
    private Map<TaskId, TaskAck> merged(CheckpointRecord record, List<AckRequest> acks,
            Map<TaskId, StoredSnapshot> stored, Instant now, boolean checkSizes) {
        Map<TaskId, TaskAck> merged = new LinkedHashMap<>();
        record.acks().forEach(ack -> merged.put(ack.task(), ack));
        for (AckRequest ack : acks) {
            requireExpected(record, ack.task());
            StoredSnapshot snapshot = stored.get(ack.task());
            if (snapshot != null && checkSizes) {
                requireSize(record, ack.task(), ack.sizeBytes(), snapshot);
            }
            merged.put(ack.task(), new TaskAck(ack.task(), snapshot == null ? 0 : snapshot.sizeBytes(), now,
                    ack.syncMillis(), ack.asyncMillis()));
        }
        return merged;
    }

    /**
     * Completes the checkpoint once every expected task acknowledged and has its snapshot stored; then applies
     * retention. Completing a completed checkpoint again returns it unchanged.
     */
    public CheckpointRecord complete(TopologyId topology, CheckpointId checkpointId) {
        return completeWithAcks(topology, checkpointId, List.of());
    }

    private void requireAcksAndSnapshots(CheckpointRecord record, List<TaskId> missingAcks,
            Map<TaskId, StoredSnapshot> stored) {
        TopologyId topology = record.topology();
        CheckpointId checkpointId = record.checkpointId();
        if (!missingAcks.isEmpty()) {
            throw rejected(MISSING_ACKS, topology, checkpointId, missingAcks, "Checkpoint " + checkpointId
                    + " of topology '" + topology + "' cannot complete: " + missingAcks.size() + " of "
                    + record.expectedTasks().size() + " tasks have not acknowledged: " + missingAcks);
        }
        List<TaskId> missingSnapshots = record.expectedTasks().stream().filter(task -> !stored.containsKey(task))
                .toList();
        if (!missingSnapshots.isEmpty()) {
            throw rejected(MISSING_SNAPSHOTS, topology, checkpointId, missingSnapshots, "Checkpoint " + checkpointId
                    + " of topology '" + topology + "' cannot complete: the snapshots of " + missingSnapshots
                    + " are not stored; upload them, or fail the checkpoint if they are lost");
        }
    }

    /** PENDING → COMPLETED, with {@code acks} replacing the recorded ones; then retention. */
    private CheckpointRecord markCompleted(CheckpointRecord record, Map<TaskId, StoredSnapshot> stored, Instant now,
            List<TaskAck> acks) {
        TopologyId topology = record.topology();
        CheckpointId checkpointId = record.checkpointId();
        long size = record.expectedTasks().stream().mapToLong(task -> stored.get(task).sizeBytes()).sum();
        long durationMillis = millisSince(record.triggeredAt(), now);
        CheckpointRecord completed = checkpoints.markCompleted(topology, checkpointId, acks, now, durationMillis, size)
                .orElseThrow(() -> changedMeanwhile(topology, checkpointId, "complete it"));
        meters.completed(topology);
        scheduleRetention(topology);
        return completed;
    }

    /** Fails a pending checkpoint. Failing a failed checkpoint again returns it unchanged. */
    public CheckpointRecord fail(TopologyId topology, CheckpointId checkpointId, CheckpointFailure failure) {
        return fail(topology, checkpointId, failure, List.of());
    }

    /**
     * Fails a pending checkpoint, recording {@code acks} with the failure: the tasks that had acknowledged when the
     * coordinator gave up, which tell the operator which did not. A size that differs from the stored snapshot's is
     * no reason to refuse a failure: the stored size is recorded.
     */
    public CheckpointRecord fail(TopologyId topology, CheckpointId checkpointId, CheckpointFailure failure,
            List<AckRequest> acks) {
        CheckpointRecord record = get(topology, checkpointId);
        if (record.status() == CheckpointStatus.FAILED) {
            return record;
        }
        requirePending(record, "fail it");
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        List<TaskAck> recorded = acks.isEmpty() ? record.acks()
                : List.copyOf(merged(record, acks, storedSnapshots(topology, checkpointId), now, false).values());
        CheckpointRecord failed = checkpoints.markFailed(topology, checkpointId, now,
                        millisSince(record.triggeredAt(), now), failure, recorded)
                .orElseThrow(() -> changedMeanwhile(topology, checkpointId, "fail it"));
        meters.failed(topology, failure.reason());
        log.info("Checkpoint {} of topology '{}' failed: {} {}", checkpointId, topology, failure.reason(),
                failure.message());
        return failed;
    }

    /**
     * Throws unless {@code task}'s snapshot, taken by its copy of {@code incarnation}, may be stored for the
     * checkpoint: not once it completed (its snapshots are what a recovery restores) or failed, and only from the
     * incarnation of the task the checkpoint expects. A checkpoint without a record yet accepts snapshots.
     */
    public void requireSnapshotsWritable(TopologyId topology, CheckpointId checkpointId, TaskId task, int incarnation) {
        requireSnapshotsWritable(topology, checkpointId, Map.of(task, incarnation));
    }

    /**
     * As {@link #requireSnapshotsWritable(TopologyId, CheckpointId, TaskId, int)} for several tasks' snapshots at
     * once, each taken by the copy of the incarnation given.
     */
    public void requireSnapshotsWritable(TopologyId topology, CheckpointId checkpointId,
            Map<TaskId, Integer> incarnations) {
        checkpoints.find(topology, checkpointId).ifPresent(record -> {
            List<TaskId> tasks = List.copyOf(incarnations.keySet());
            if (record.status() != CheckpointStatus.PENDING) {
                String of = tasks.size() == 1 ? "the snapshot of '" + tasks.get(0) + "'" : "the snapshots of " + tasks;
                throw rejected(NOT_PENDING, topology, checkpointId, tasks, "Checkpoint " + checkpointId
                        + " of topology '" + topology + "' is " + record.status() + "; its snapshots cannot change."
                        + " Upload " + of + " under a pending checkpoint");
            }
            incarnations.forEach((task, incarnation) -> requireExpectedIncarnation(record, task, incarnation));
        });
    }

    /**
     * A snapshot of another copy of the task than the one the checkpoint was triggered for is refused: an older copy
     * was superseded (frozen and declared dead, it may still finish an upload it had begun), and a newer one took over
     * after the checkpoint was triggered, restored from an earlier checkpoint.
     */
    private static void requireExpectedIncarnation(CheckpointRecord record, TaskId task, int incarnation) {
        int expected = record.expectedIncarnationOf(task);
        if (incarnation == expected) {
            return;
        }
        boolean superseded = incarnation < expected;
        String meaning = superseded
                ? "a newer copy of the task took over from this one, which must neither store nor acknowledge a"
                        + " snapshot any more"
                : "the task was recovered after the checkpoint was triggered; its new copy takes part in later"
                        + " checkpoints only";
        throw rejected(superseded ? SUPERSEDED_INCARNATION : NEWER_INCARNATION, record.topology(),
                record.checkpointId(), List.of(task), "Checkpoint " + record.checkpointId() + " of topology '"
                        + record.topology() + "' takes the snapshot of task '" + task + "' from its incarnation "
                        + expected + ", not from incarnation " + incarnation + ": " + meaning
                        + ". The snapshot is not stored");
    }

    /** Deletes every checkpoint record and snapshot of the topology, e.g. when it is cancelled. */
    public DeletedTopology deleteTopology(TopologyId topology) {
        long records = checkpoints.deleteTopology(topology);
        long deleted = snapshots.deleteTopology(topology);
        log.info("Deleted {} checkpoint records and {} snapshots of topology '{}'", records, deleted, topology);
        return new DeletedTopology(topology, records, deleted);
    }

    /** What {@link #deleteTopology} removed. */
    public record DeletedTopology(TopologyId topology, long checkpointsDeleted, long snapshotsDeleted) {
    }

    private void scheduleRetention(TopologyId topology) {
        if (!retentionDue.add(topology)) {
            return; // a run waits to start; it sees this completion
        }
        try {
            retentionRuns.execute(() -> {
                retentionDue.remove(topology);
                try {
                    applyRetention(topology);
                } catch (RuntimeException e) {
                    log.warn("Retention of topology '{}' failed ({}); it runs again after its next completed"
                            + " checkpoint", topology, e.getMessage());
                }
            });
        } catch (RejectedExecutionException e) {
            retentionDue.remove(topology);
            log.debug("Retention of topology '{}' not run: the service is stopping", topology);
        }
    }

    private void applyRetention(TopologyId topology) {
        retention.cut(checkpoints.list(topology)).ifPresent(cut -> {
            long records = checkpoints.deleteOlderThan(topology, cut.before(), cut.keep());
            long deleted = snapshots.deleteOlderThan(topology, cut.before(), cut.keep());
            if (records > 0 || deleted > 0) {
                log.debug("Retention of topology '{}' kept {} and deleted {} records and {} snapshots older than {}",
                        topology, cut.keep(), records, deleted, cut.before());
            }
        });
    }

    private void requirePending(CheckpointRecord record, String action) {
        if (record.status() != CheckpointStatus.PENDING) {
            throw rejected(NOT_PENDING, record.topology(), record.checkpointId(), List.of(), "Checkpoint "
                    + record.checkpointId() + " of topology '" + record.topology() + "' is " + record.status()
                    + "; cannot " + action + " (only a PENDING checkpoint changes)");
        }
    }

    private CheckpointRejectedException changedMeanwhile(TopologyId topology, CheckpointId checkpointId,
            String action) {
        CheckpointRecord now = get(topology, checkpointId);
        return rejected(NOT_PENDING, topology, checkpointId, List.of(), "Checkpoint " + checkpointId
                + " of topology '" + topology + "' became " + now.status() + " meanwhile; cannot " + action);
    }

    private static long millisSince(Instant start, Instant end) {
        return Math.max(0, Duration.between(start, end).toMillis());
    }

    private static CheckpointRejectedException notFound(TopologyId topology, CheckpointId checkpointId) {
        return rejected(NOT_FOUND, topology, checkpointId, List.of(), "No checkpoint " + checkpointId
                + " of topology '" + topology + "'; create it with POST /api/v1/checkpoints/" + topology);
    }

    private static CheckpointRejectedException rejected(CheckpointRejectedException.Reason reason,
            TopologyId topology, CheckpointId checkpointId, List<TaskId> tasks, String message) {
        return new CheckpointRejectedException(reason, topology, checkpointId, tasks, message);
    }
}
