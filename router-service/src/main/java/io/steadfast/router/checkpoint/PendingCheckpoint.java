package io.steadfast.router.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A triggered checkpoint waiting for its tasks' acks: which tasks (and hosts, and incarnations) must still
 * acknowledge, and when it expires. Not thread-safe: owned by its {@link CheckpointCoordinator}.
 */
public final class PendingCheckpoint {

    private final long checkpointId;
    private final Instant triggeredAt;
    private final Instant deadline;
    private final Map<TaskId, HostId> expected;
    private final Map<TaskId, Integer> incarnations;
    private final Map<TaskId, TaskAck> acks = new LinkedHashMap<>();
    private final long sinkRecordsAtTrigger;

    /**
     * @param expected every task that must acknowledge, with its host
     * @param incarnations the incarnation of each of those tasks that runs when it is triggered; 0 for a task not named
     * @param sinkRecordsAtTrigger records the sinks had taken in when it was triggered (for recovery catch-up)
     */
    public PendingCheckpoint(long checkpointId, Instant triggeredAt, Instant deadline, Map<TaskId, HostId> expected,
                             Map<TaskId, Integer> incarnations, long sinkRecordsAtTrigger) {
        if (expected.isEmpty()) {
            throw new IllegalArgumentException("checkpoint " + checkpointId + " has no task to acknowledge it");
        }
        this.checkpointId = checkpointId;
        this.triggeredAt = triggeredAt;
        this.deadline = deadline;
        this.expected = new TreeMap<>(expected);
        this.incarnations = Map.copyOf(incarnations);
        this.sinkRecordsAtTrigger = sinkRecordsAtTrigger;
    }

    public long checkpointId() {
        return checkpointId;
    }

    public Instant triggeredAt() {
        return triggeredAt;
    }

    public long sinkRecordsAtTrigger() {
        return sinkRecordsAtTrigger;
    }

    /**
     * Records a task's ack.
     *
     * @return false if the task is not one of this checkpoint's, already acknowledged, or acknowledged by another copy
     *         of it than the one that ran when the checkpoint was triggered: from another host, or of another
     *         incarnation (a superseded copy of it, on a host frozen since, or one recovered after the trigger)
     */
    public boolean acknowledge(TaskAck ack) {
        if (!expects(ack.task(), ack.host(), ack.incarnation()) || acks.containsKey(ack.task())) {
            return false;
        }
        acks.put(ack.task(), ack);
        return true;
    }

    /**
     * Whether {@code task}'s copy of {@code incarnation} on {@code host} is the one this checkpoint takes the snapshot
     * of: the copy that ran when it was triggered. Another (superseded, or recovered after the trigger) may neither
     * acknowledge it nor fail it.
     */
    public boolean expects(TaskId task, HostId host, int incarnation) {
        return host.equals(expected.get(task)) && incarnation == incarnations.getOrDefault(task, 0);
    }

    public boolean isFullyAcknowledged() {
        return acks.size() == expected.size();
    }

    public boolean isExpired(Instant now) {
        return !now.isBefore(deadline);
    }

    /** Whether every one of {@code tasks} acknowledged (their snapshots are stored); false for a task not expected. */
    public boolean acknowledgedBy(Collection<TaskId> tasks) {
        return acks.keySet().containsAll(tasks);
    }

    /** The acks so far, in the order they came. */
    public List<TaskAck> acks() {
        return List.copyOf(acks.values());
    }

    /** The tasks that have not acknowledged yet, with their hosts, sorted by task. */
    public Map<TaskId, HostId> missing() {
        Map<TaskId, HostId> missing = new TreeMap<>(expected);
        missing.keySet().removeAll(acks.keySet());
        return missing;
    }

    public List<TaskId> tasks() {
        return List.copyOf(expected.keySet());
    }

    /** e.g. {@code task 'wc/count#1' on host-b, task 'wc/sink#0' on host-b}. */
    public String describeMissing() {
        return missing().entrySet().stream().map(e -> "task '" + e.getKey() + "' on " + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
