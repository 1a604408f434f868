package io.steadfast.router.checkpoint;

import io.steadfast.router.checkpoint.CheckpointRecordsException.Reason;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records checkpoint failures in the store, and keeps those it could not record because the store was
 * unreachable: the newest {@code maxPerTopology} of each topology (older ones are dropped, with a warning), recorded
 * by {@link #flush} once the store answers again. Without this a checkpoint that failed during a store outage would
 * only be in the router's log; with it the store's listing shows it FAILED with its reason afterwards.
 *
 * <p>Thread-safe: {@link #record} is called by coordinators, {@link #flush} by the checkpoint tick; store calls are
 * made outside the lock.
 */
public final class UnrecordedFailures {

    /** How many unrecorded failures are kept per topology by default. */
    public static final int DEFAULT_MAX_PER_TOPOLOGY = 100;

    private static final Logger LOG = LoggerFactory.getLogger(UnrecordedFailures.class);

    /**
     * A checkpoint failure to record.
     *
     * @param topology the topology
     * @param checkpointId the checkpoint
     * @param tasks every task it expected (to create its record if the store never got it)
     * @param triggeredAt when it was triggered
     * @param reason why it failed
     * @param message what failed, for people
     * @param acks the acks taken before it failed
     */
    public record Failure(TopologyId topology, long checkpointId, List<TaskId> tasks, Instant triggeredAt,
                          CheckpointFailureReason reason, String message, List<TaskAck> acks) {

        public Failure {
            tasks = List.copyOf(tasks);
            acks = List.copyOf(acks);
        }

        /** A failure before any ack was taken. */
        public Failure(TopologyId topology, long checkpointId, List<TaskId> tasks, Instant triggeredAt,
                       CheckpointFailureReason reason, String message) {
            this(topology, checkpointId, tasks, triggeredAt, reason, message, List.of());
        }
    }

    private final CheckpointRecords records;
    private final Clock clock;
    private final int maxPerTopology;
    private final Map<TopologyId, Deque<Failure>> kept = new LinkedHashMap<>();

    public UnrecordedFailures(CheckpointRecords records, Clock clock, int maxPerTopology) {
        if (maxPerTopology < 1) {
            throw new IllegalArgumentException("maxPerTopology must be >= 1, was " + maxPerTopology);
        }
        this.records = records;
        this.clock = clock;
        this.maxPerTopology = maxPerTopology;
    }

    /**
     * Keeps a failure for the next {@link #flush} instead of recording it now: for callers that must not wait for
     * the store (a recovery cancelling the checkpoints in flight).
     */
    public synchronized void recordLater(Failure failure) {
        keep(failure);
    }

    /**
     * Records a failure in the store now, or keeps it for {@link #flush} if the store is unreachable (or still has
     * earlier failures of the topology to take, which go first). A store that refuses it is logged, not retried.
     */
    public void record(Failure failure) {
        synchronized (this) {
            if (kept.containsKey(failure.topology())) {
                keep(failure);
                return;
            }
        }
        try {
            write(failure, failure.message());
        } catch (CheckpointRecordsException e) {
            if (e.isUnavailable()) {
                synchronized (this) {
                    keep(failure);
                }
                LOG.warn("Could not record the failure of checkpoint {} of '{}' ({}): the checkpoint store is"
                        + " unavailable; the router keeps it and records it once the store answers",
                        failure.checkpointId(), failure.topology(), failure.reason());
            } else {
                LOG.warn("The checkpoint store refused the failure of checkpoint {} of '{}': {}",
                        failure.checkpointId(), failure.topology(), e.getMessage());
            }
        }
    }

    /**
     * Records the kept failures, oldest first per topology, until the store turns out to be unreachable still.
     *
     * @return how many were recorded
     */
    public int flush() {
        List<Failure> pending;
        synchronized (this) {
            pending = new ArrayList<>();
            kept.values().forEach(pending::addAll);
        }
        int recorded = 0;
        for (Failure failure : pending) {
            try {
                write(failure, failure.message() + " (recorded at " + clock.instant() + ", once the checkpoint"
                        + " store answered again)");
                recorded++;
            } catch (CheckpointRecordsException e) {
                if (e.isUnavailable()) {
                    return recorded;
                }
                LOG.warn("The checkpoint store refused the kept failure of checkpoint {} of '{}'; dropping it: {}",
                        failure.checkpointId(), failure.topology(), e.getMessage());
            }
            synchronized (this) {
                Deque<Failure> queue = kept.get(failure.topology());
                if (queue != null && queue.remove(failure) && queue.isEmpty()) {
                    kept.remove(failure.topology());
                }
            }
        }
        if (recorded > 0) {
            LOG.info("Recorded {} checkpoint failure(s) kept while the checkpoint store was unavailable", recorded);
        }
        return recorded;
    }

    /** How many failures of the topology wait to be recorded. */
    public synchronized int count(TopologyId topology) {
        Deque<Failure> queue = kept.get(topology);
        return queue == null ? 0 : queue.size();
    }

    /** Drops the topology's kept failures (it was cancelled, and its records with it). */
    public synchronized void forget(TopologyId topology) {
        kept.remove(topology);
    }

    private void keep(Failure failure) {
        Deque<Failure> queue = kept.computeIfAbsent(failure.topology(), t -> new ArrayDeque<>());
        queue.addLast(failure);
        if (queue.size() > maxPerTopology) {
            Failure dropped = queue.removeFirst();
            LOG.warn("Dropping the unrecorded failure of checkpoint {} of '{}': more than {} failures of the topology"
                    + " wait for the checkpoint store", dropped.checkpointId(), dropped.topology(), maxPerTopology);
        }
    }

    /** Fails the record; creates it first if the store does not have it (its start was never recorded, or lost). */
    private void write(Failure failure, String message) {
        try {
            records.fail(failure.topology(), failure.checkpointId(), failure.reason(), message, failure.acks());
        } catch (CheckpointRecordsException e) {
            if (e.reason() != Reason.NOT_FOUND) {
                throw e;
            }
            // a record that only holds the failure takes no snapshot: the incarnations it expects do not matter
            records.create(failure.topology(), failure.checkpointId(), failure.tasks(), Map.of(), failure.triggeredAt());
            records.fail(failure.topology(), failure.checkpointId(), failure.reason(), message, failure.acks());
        }
    }
}
