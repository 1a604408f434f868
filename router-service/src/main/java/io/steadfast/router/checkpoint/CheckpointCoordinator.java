package io.steadfast.router.checkpoint;

import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sequences the checkpoints of one deployment of one topology: asks the {@link CheckpointScheduler} when, records
 * each in the store, triggers the hosts of its source tasks, feeds acks to the {@link PendingCheckpoint} and
 * completes, fails or expires it. Failures go to the store through {@link UnrecordedFailures}, which keeps them
 * while the store is unreachable. While the topology is not running it skips due checkpoints and keeps the reason.
 * Ids only increase, starting from the one it is given. Thread-safe (every method is synchronized; calls to the
 * store and hosts are short and bounded by their clients' timeouts).
 */
public final class CheckpointCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinator.class);

    private final TopologyId topology;
    private final int epoch;
    private final Map<TaskId, HostId> tasks;
    /** The incarnation of each task that runs in the deployment, where not 0: the copy whose snapshot counts. */
    private final Map<TaskId, Integer> incarnations;
    private final Set<HostId> sourceHosts = new TreeSet<>();
    private final CheckpointRecords records;
    private final UnrecordedFailures failures;
    private final CheckpointTriggers triggers;
    private final LongSupplier sinkRecords;
    private final Clock clock;
    private final CheckpointSettings settings;
    private final CheckpointScheduler scheduler;
    private final CheckpointCompletions completions;
    private final Executor triggerCalls;
    private final CheckpointOutcomes outcomes;
    private final Set<HostId> hosts;
    private final TreeMap<Long, PendingCheckpoint> pending = new TreeMap<>();
    private long nextId;
    private CompletedCheckpoint lastCompleted;
    /** Checkpoints expired one after the other since the last completion, and the tasks the last one missed. */
    private int expiredInARow;
    private Map<TaskId, HostId> missedLast = Map.of();
    private long completedCount;
    private long failedCount;
    private boolean stopped;
    private String notRunning;

    /**
     * @param firstId the id of this coordinator's first checkpoint (one past every id used before for the topology)
     * @param sinkRecords the records the topology's sinks have taken in so far, from the hosts' latest reports
     * @param lastCompleted the latest checkpoint completed before this deployment, or null
     * @param context the store, hosts and time every coordinator shares
     */
    public CheckpointCoordinator(DeployedTopology topology, long firstId, LongSupplier sinkRecords,
                                 CheckpointSettings settings, CompletedCheckpoint lastCompleted,
                                 CoordinatorContext context) {
        this.triggerCalls = context.triggerCalls();
        this.completions = context.completions();
        this.outcomes = context.outcomes();
        this.hosts = new TreeSet<>(topology.placement().values());
        this.topology = topology.id();
        this.epoch = topology.plan().epoch();
        this.tasks = new TreeMap<>(topology.placement());
        this.incarnations = topology.incarnations();
        for (TaskSpec source : topology.plan().sources()) {
            sourceHosts.add(topology.placement().get(source.id()));
        }
        this.records = context.records();
        this.failures = context.failures();
        this.triggers = context.triggers();
        this.sinkRecords = sinkRecords;
        this.clock = context.clock();
        this.settings = settings;
        this.scheduler = new CheckpointScheduler(settings.interval(), settings.maxConcurrent(), this.clock.instant());
        this.nextId = firstId;
        this.lastCompleted = lastCompleted;
    }

    /**
     * Expires overdue checkpoints, then triggers one if due (not while the sources have all finished). A failure
     * to record its start in the store fails it (see {@link #triggerNow}) and is logged here.
     */
    public synchronized void tick(boolean sourcesFinished) {
        if (stopped) {
            return;
        }
        running();
        expireOverdue();
        if (!sourcesFinished && scheduler.decide(clock.instant(), pending.size()) == CheckpointScheduler.Decision.TRIGGER) {
            try {
                trigger();
            } catch (CheckpointRecordsException e) {
                LOG.debug("Checkpoint of '{}' not started at this tick", topology, e); // trigger() logged why
            } catch (RuntimeException e) {
                LOG.warn("Checkpoint of '{}' not started at this tick: {}", topology, e.toString());
            }
        }
    }

    /**
     * A tick while the topology is not running (a host of one of its tasks is not LIVE, or a task FAILED): expires
     * overdue checkpoints, and skips (and counts) a due one instead of triggering a checkpoint that cannot complete.
     *
     * @param reason what keeps the topology from running, kept for {@link #notRunningReason}
     */
    public synchronized void skipWhileNotRunning(String reason) {
        if (stopped) {
            return;
        }
        if (!reason.equals(notRunning)) {
            LOG.warn("Skipping the checkpoints of topology '{}' while it is not running: {}", topology, reason);
        }
        notRunning = reason;
        expireOverdue();
        scheduler.skipIfDue(clock.instant());
    }

    private void running() {
        if (notRunning != null) {
            LOG.info("Topology '{}' runs again; checkpointing resumes", topology);
            notRunning = null;
        }
    }

    /**
     * Triggers a checkpoint now, whatever the interval, unless the maximum is already pending or it is stopped.
     *
     * @throws CheckpointRecordsException if the store could not record its start (the checkpoint then failed, and
     *                                    its failure is recorded or kept for the store)
     */
    public synchronized TriggerResult triggerNow() {
        if (stopped) {
            return new TriggerResult.Refused("Checkpointing of topology '" + topology + "' has stopped: it is being"
                    + " recovered or cancelled; retry once it runs again");
        }
        if (!scheduler.mayTrigger(pending.size())) {
            return new TriggerResult.Refused("Topology '" + topology + "' already has " + pending.size()
                    + " checkpoint(s) pending, its maximum; retry once one completes, or raise its"
                    + " checkpointing.maxConcurrent (default steadfast.router.checkpoint.max-concurrent)");
        }
        return new TriggerResult.Triggered(trigger());
    }

    private long trigger() {
        long id = nextId++;
        Instant now = clock.instant();
        scheduler.triggered(now);
        List<TaskId> taskIds = List.copyOf(tasks.keySet());
        try {
            records.create(topology, id, taskIds, incarnations, now);
        } catch (CheckpointRecordsException e) {
            failedCount++;
            outcomes.failed(topology, id, CheckpointFailureReason.STORE_UNAVAILABLE);
            if (e.isUnavailable()) {
                String message = "Checkpoint " + id + " of topology '" + topology + "' was not started: the"
                        + " checkpoint store is unavailable (" + e.getMessage() + ")";
                LOG.warn(message);
                failures.record(new UnrecordedFailures.Failure(topology, id, taskIds, now,
                        CheckpointFailureReason.STORE_UNAVAILABLE, message));
            } else {
                LOG.warn("Checkpoint {} of topology '{}' not triggered: the store refused it: {}", id, topology,
                        e.getMessage());
            }
            throw e;
        }
        PendingCheckpoint checkpoint = new PendingCheckpoint(id, now, now.plus(settings.timeout()), tasks,
                incarnations, sinkRecords.getAsLong());
        pending.put(id, checkpoint);
        for (HostId host : sourceHosts) {
            triggerCalls.execute(() -> triggerOn(host, checkpoint));
        }
        return id;
    }

    private void triggerOn(HostId host, PendingCheckpoint checkpoint) {
        try {
            triggers.trigger(host, topology, checkpoint.checkpointId());
        } catch (RuntimeException e) {
            synchronized (this) {
                if (pending.get(checkpoint.checkpointId()) == checkpoint) {
                    fail(checkpoint, CheckpointFailureReason.TASK_FAILED, "Checkpoint " + checkpoint.checkpointId()
                            + " of topology '" + topology + "' could not be started on host " + host + ": "
                            + e.getMessage());
                }
            }
        }
    }

    /**
     * Records a task's ack; completes the checkpoint when it was the last one, recording that in the store on the
     * caller's thread, outside this coordinator's lock (a recovery that stops the coordinator meanwhile does not
     * wait for the store). Unknown ids are ignored.
     */
    public void acknowledge(long checkpointId, TaskAck ack) {
        PendingCheckpoint complete;
        synchronized (this) {
            PendingCheckpoint checkpoint = pending.get(checkpointId);
            if (checkpoint == null || !checkpoint.acknowledge(ack)) {
                LOG.debug("Ignoring ack of {} (incarnation {}, on {}) for checkpoint {} of '{}' (not pending, or not"
                        + " its task's copy)", ack.task(), ack.incarnation(), ack.host(), checkpointId, topology);
                return;
            }
            if (!checkpoint.isFullyAcknowledged()) {
                return;
            }
            pending.remove(checkpointId);
            complete = checkpoint;
        }
        complete(complete);
    }

    /** A task could not take its part: the checkpoint fails with the reason it gave. */
    public synchronized void decline(long checkpointId, TaskId task, HostId host, int incarnation, String reason) {
        PendingCheckpoint checkpoint = pending.get(checkpointId);
        if (checkpoint == null || !checkpoint.expects(task, host, incarnation)) {
            LOG.debug("Ignoring the nack of {} (incarnation {}, on {}) for checkpoint {} of '{}' (not pending, or not"
                    + " its task's copy): {}", task, incarnation, host, checkpointId, topology, reason);
            return;
        }
        fail(checkpoint, CheckpointFailureReason.fromNack(reason), "Checkpoint " + checkpointId + " of topology '"
                + topology + "' was declined by task '" + task + "' on " + host + ": " + reason);
    }

    /**
     * Stops triggering and fails what is pending as CANCELLED, recorded in the store at the next tick (a recovery
     * must not wait for it); returns the next unused id.
     */
    public synchronized long stop() {
        stopped = true;
        for (PendingCheckpoint checkpoint : pending.values().toArray(PendingCheckpoint[]::new)) {
            pending.remove(checkpoint.checkpointId());
            failedCount++;
            outcomes.failed(topology, checkpoint.checkpointId(), CheckpointFailureReason.CANCELLED);
            String message = "Checkpoint " + checkpoint.checkpointId() + " of topology '" + topology
                    + "' was abandoned: the topology is being recovered or cancelled";
            LOG.info(message);
            failures.recordLater(new UnrecordedFailures.Failure(topology, checkpoint.checkpointId(),
                    checkpoint.tasks(), checkpoint.triggeredAt(), CheckpointFailureReason.CANCELLED, message,
                    checkpoint.acks()));
        }
        return nextId;
    }

    /**
     * Records a fully acknowledged checkpoint complete in the store (outside the lock), then, unless the coordinator
     * stopped meanwhile, counts it as the latest completed and announces it to the hosts. A checkpoint completed in
     * the store after a recovery stopped the coordinator is not announced: the recovery restores from the one before,
     * whose logs the hosts still hold (the store keeps several completed checkpoints).
     */
    private void complete(PendingCheckpoint checkpoint) {
        try {
            records.complete(topology, checkpoint.checkpointId(), checkpoint.acks());
        } catch (RuntimeException e) {
            String message = "Checkpoint " + checkpoint.checkpointId() + " of topology '" + topology + "' had every"
                    + " ack but could not be recorded complete: " + e.getMessage();
            LOG.warn(message);
            synchronized (this) {
                failedCount++;
            }
            outcomes.failed(topology, checkpoint.checkpointId(), CheckpointFailureReason.STORE_UNAVAILABLE);
            recordFailure(checkpoint, CheckpointFailureReason.STORE_UNAVAILABLE, message);
            return;
        }
        outcomes.completed(topology, checkpoint.checkpointId(),
                Duration.between(checkpoint.triggeredAt(), clock.instant()),
                checkpoint.acks().stream().mapToLong(TaskAck::sizeBytes).sum());
        synchronized (this) {
            if (stopped) {
                LOG.info("Checkpoint {} of topology '{}' completed in the store after its checkpointing stopped (a"
                        + " recovery or a cancellation); it is not announced", checkpoint.checkpointId(), topology);
                return;
            }
            completedCount++;
            if (lastCompleted == null || checkpoint.checkpointId() > lastCompleted.checkpointId()) {
                expiredInARow = 0;
                lastCompleted = new CompletedCheckpoint(checkpoint.checkpointId(), epoch,
                        checkpoint.sinkRecordsAtTrigger(), clock.instant());
            }
            LOG.debug("Checkpoint {} of topology '{}' completed", checkpoint.checkpointId(), topology);
            completions.completed(topology, checkpoint.checkpointId(), hosts);
        }
    }

    /**
     * The tasks the latest checkpoint missed, with their hosts, if at least {@code times} checkpoints in a row expired
     * since the last completion; empty otherwise.
     */
    public synchronized Map<TaskId, HostId> missedByExpiries(int times) {
        return expiredInARow >= times ? missedLast : Map.of();
    }

    /** The id of the latest checkpoint triggered (or that this coordinator would have continued after). */
    public synchronized long lastTriggeredId() {
        return nextId - 1;
    }

    private void expireOverdue() {
        Instant now = clock.instant();
        Iterator<PendingCheckpoint> it = pending.values().iterator();
        while (it.hasNext()) {
            PendingCheckpoint checkpoint = it.next();
            if (checkpoint.isExpired(now)) {
                expiredInARow++;
                missedLast = Map.copyOf(checkpoint.missing());
                String hosts = String.join(", ", new TreeSet<>(checkpoint.missing().values()).stream()
                        .map(HostId::value).toList());
                fail(checkpoint, CheckpointFailureReason.TIMEOUT, "Checkpoint " + checkpoint.checkpointId()
                        + " of topology '" + topology + "' expired after " + settings.timeout() + ": "
                        + checkpoint.describeMissing() + " did not acknowledge. If those tasks are slow, raise "
                        + "steadfast.router.checkpoint.timeout; if " + hosts + " is unhealthy, check its "
                        + "/actuator/health");
                it = pending.values().iterator(); // fail() removed it
            }
        }
    }

    private void fail(PendingCheckpoint checkpoint, CheckpointFailureReason reason, String message) {
        pending.remove(checkpoint.checkpointId());
        failedCount++;
        outcomes.failed(topology, checkpoint.checkpointId(), reason);
        LOG.warn("{} ({})", message, reason);
        recordFailure(checkpoint, reason, message);
    }

    private void recordFailure(PendingCheckpoint checkpoint, CheckpointFailureReason reason, String message) {
        failures.record(new UnrecordedFailures.Failure(topology, checkpoint.checkpointId(), checkpoint.tasks(),
                checkpoint.triggeredAt(), reason, message, checkpoint.acks()));
    }

    /** The epoch of the deployment this coordinator checkpoints. */
    public int epoch() {
        return epoch;
    }

    public TopologyId topology() {
        return topology;
    }

    public synchronized Optional<CompletedCheckpoint> lastCompleted() {
        return Optional.ofNullable(lastCompleted);
    }

    /**
     * The pending checkpoints that every one of {@code tasks} acknowledged, oldest first: those the tasks' snapshots are
     * stored for, which complete once the other tasks acknowledge, even if the hosts of {@code tasks} failed since.
     */
    public synchronized List<Long> pendingAcknowledgedBy(Collection<TaskId> tasks) {
        return pending.values().stream().filter(checkpoint -> checkpoint.acknowledgedBy(tasks))
                .map(PendingCheckpoint::checkpointId).toList();
    }

    /**
     * The acks checkpoint {@code checkpointId} has taken so far, in the order they came, while it is pending here;
     * empty once it completed or failed (or if it never was). The store learns them only when it completes.
     */
    public synchronized Optional<List<TaskAck>> pendingAcks(long checkpointId) {
        return Optional.ofNullable(pending.get(checkpointId)).map(PendingCheckpoint::acks);
    }

    public synchronized int pendingCount() {
        return pending.size();
    }

    public synchronized long completedCount() {
        return completedCount;
    }

    public synchronized long failedCount() {
        return failedCount;
    }

    public synchronized long skippedCount() {
        return scheduler.skipped();
    }

    /** Why the topology was not running at the latest tick, or null if it was. */
    public synchronized String notRunningReason() {
        return notRunning;
    }

    public CheckpointSettings settings() {
        return settings;
    }
}
