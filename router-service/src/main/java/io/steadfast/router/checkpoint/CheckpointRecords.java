package io.steadfast.router.checkpoint;

import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where checkpoint records live: the checkpoint-service ({@link HttpCheckpointRecords}) or memory
 * ({@link InMemoryCheckpointRecords}). Thread-safe; every method throws {@link CheckpointRecordsException} when
 * the store cannot be reached or refuses the call.
 */
public interface CheckpointRecords {

    /**
     * Records a PENDING checkpoint that every one of {@code tasks} must acknowledge.
     *
     * @param incarnations the incarnation of each task whose snapshot it takes (the copy that runs when it is
     *                     triggered); 0 for a task not named. The store refuses the snapshots of other copies.
     */
    void create(TopologyId topology, long checkpointId, List<TaskId> tasks, Map<TaskId, Integer> incarnations,
                Instant triggeredAt);

    void acknowledge(TopologyId topology, long checkpointId, TaskAck ack);

    /** Marks a checkpoint whose tasks all acknowledged COMPLETED. */
    void complete(TopologyId topology, long checkpointId);

    /** Records every task's ack and marks the checkpoint COMPLETED (one call where the store allows it). */
    default void complete(TopologyId topology, long checkpointId, List<TaskAck> acks) {
        acks.forEach(ack -> acknowledge(topology, checkpointId, ack));
        complete(topology, checkpointId);
    }

    /** Marks a checkpoint FAILED, with no ack to add. */
    default void fail(TopologyId topology, long checkpointId, CheckpointFailureReason reason, String message) {
        fail(topology, checkpointId, reason, message, List.of());
    }

    /**
     * Marks a checkpoint FAILED, recording {@code acks} with it: those the coordinator had taken, so that the
     * checkpoint shows which tasks acknowledged and which did not.
     */
    void fail(TopologyId topology, long checkpointId, CheckpointFailureReason reason, String message,
              List<TaskAck> acks);

    /** The topology's checkpoints, newest first. */
    List<CheckpointSummary> list(TopologyId topology);

    /**
     * One checkpoint of the topology with every expected task's ack as the store recorded it, or empty if the store
     * has no such checkpoint (never had, dropped it by its retention, or the topology's checkpoints were deleted).
     * The store knows no hosts: the tasks' {@code host} is null.
     */
    Optional<CheckpointDetail> find(TopologyId topology, long checkpointId);

    /** The id of the topology's latest COMPLETED checkpoint, if any. */
    OptionalLong latestCompleted(TopologyId topology);

    /** Forgets every checkpoint (and snapshot) of the topology. */
    void delete(TopologyId topology);
}
