package io.steadfast.checkpoint.checkpoint;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checkpoint records, one per topology and checkpoint id. Thread-safe; each state change is atomic in the store,
 * so concurrent acknowledgements never lose one another. Every write is durable when the method returns.
 */
public interface CheckpointStore {

    /**
     * Stores a new record.
     *
     * @return false when a record with the same topology and id exists (nothing is changed then)
     */
    boolean create(CheckpointRecord record);

    Optional<CheckpointRecord> find(TopologyId topology, CheckpointId checkpointId);

    /** Every record of the topology, newest (highest id) first. */
    List<CheckpointRecord> list(TopologyId topology);

    /** The COMPLETED record with the highest id. */
    Optional<CheckpointRecord> latestCompleted(TopologyId topology);

    /**
     * Adds the ack, or replaces an earlier ack of the same task, if the record is PENDING.
     *
     * @return the updated record, or empty when there is no PENDING record
     */
    Optional<CheckpointRecord> addAck(TopologyId topology, CheckpointId checkpointId, TaskAck ack);

    /** PENDING → COMPLETED; empty when the record is missing or not PENDING. */
    Optional<CheckpointRecord> markCompleted(TopologyId topology, CheckpointId checkpointId, Instant completedAt,
            long durationMillis, long sizeBytes);

    /**
     * PENDING → COMPLETED with its acks replaced by {@code acks}, in one write; empty when the record is missing or
     * not PENDING.
     */
    Optional<CheckpointRecord> markCompleted(TopologyId topology, CheckpointId checkpointId, List<TaskAck> acks,
            Instant completedAt, long durationMillis, long sizeBytes);

    /**
     * PENDING → FAILED with its acks replaced by {@code acks}, in one write; empty when the record is missing or not
     * PENDING.
     */
    Optional<CheckpointRecord> markFailed(TopologyId topology, CheckpointId checkpointId, Instant failedAt,
            long durationMillis, CheckpointFailure failure, List<TaskAck> acks);

    /** Deletes the records of {@code topology} with an id below {@code before} except {@code keep}; returns how many. */
    long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep);

    /** Deletes every record of the topology; returns how many. */
    long deleteTopology(TopologyId topology);
}
