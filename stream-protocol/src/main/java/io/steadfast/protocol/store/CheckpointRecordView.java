package io.steadfast.protocol.store;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A checkpoint as the checkpoint-service records it, with the tasks still to acknowledge: its answer to the calls of
 * {@code /api/v1/checkpoints/{topology}/...}, one element of a {@link CheckpointRecordList}. Its groups are members of
 * the body itself, so the body is one flat object: {@code topology, checkpointId, status, triggeredAt, completedAt,
 * durationMillis, sizeBytes, expectedTasks, expectedIncarnations, acks, missingAcks, failure}.
 *
 * @param status    {@code PENDING} until it {@code COMPLETED} or {@code FAILED}; both are final
 * @param sizeBytes the sum of the acknowledged snapshots' sizes (of the stored snapshots once completed)
 * @param failure   why it failed; null unless it did
 */
public record CheckpointRecordView(TopologyId topology, CheckpointId checkpointId, String status,
                                   @JsonUnwrapped Timing timing, long sizeBytes, @JsonUnwrapped Tasks tasks,
                                   @Nullable Failure failure) {

    /**
     * @param completedAt    when it completed or failed; null while pending
     * @param durationMillis from trigger to completion or failure; null while pending
     */
    public record Timing(Instant triggeredAt, @Nullable Instant completedAt, @Nullable Long durationMillis) {
    }

    /**
     * The tasks of the checkpoint and their acknowledgements.
     *
     * @param expectedTasks        every task that must acknowledge it
     * @param expectedIncarnations the incarnation whose snapshot it takes of each task where that is not 0
     * @param acks                 the acknowledgements so far
     * @param missingAcks          the expected tasks that have not acknowledged yet, in expected order
     */
    public record Tasks(List<TaskId> expectedTasks, Map<TaskId, Integer> expectedIncarnations, List<StoredAck> acks,
                        List<TaskId> missingAcks) {
    }

    /**
     * A task's acknowledgement as recorded.
     *
     * @param sizeBytes   the stored snapshot's size
     * @param ackedAt     when the service recorded it
     * @param syncMillis  the synchronous part of taking the snapshot, on the task's thread
     * @param asyncMillis the asynchronous part, until the snapshot was stored
     */
    public record StoredAck(TaskId task, long sizeBytes, Instant ackedAt, long syncMillis, long asyncMillis) {
    }

    /**
     * @param reason  one of the reasons a {@link CheckpointFailureReport} gives
     * @param message what failed (empty if the report gave nothing)
     */
    public record Failure(String reason, String message) {
    }
}
