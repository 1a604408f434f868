package io.steadfast.checkpoint.web;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointFailure;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.checkpoint.checkpoint.CheckpointStatus;
import io.steadfast.checkpoint.checkpoint.CheckpointTiming;
import io.steadfast.checkpoint.checkpoint.TaskAck;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON form of a checkpoint record, with the tasks still to acknowledge. Its groups are unwrapped, so the body
 * is one flat object: {@code topology, checkpointId, status, triggeredAt, completedAt, durationMillis, sizeBytes,
 * expectedTasks, expectedIncarnations, acks, missingAcks, failure}, as its readers (the router, the launcher, the
 * dashboard) expect.
 */
record CheckpointView(
        TopologyId topology,
        CheckpointId checkpointId,
        CheckpointStatus status,
        @JsonUnwrapped CheckpointTiming timing,
        long sizeBytes,
        @JsonUnwrapped Tasks tasks,
        @Nullable CheckpointFailure failure) {

    /**
     * The tasks of the checkpoint and their acknowledgements.
     *
     * @param expectedIncarnations the tasks whose expected incarnation is not 0
     */
    record Tasks(List<TaskId> expectedTasks, Map<TaskId, Integer> expectedIncarnations, List<TaskAck> acks,
                 List<TaskId> missingAcks) {
    }

    static CheckpointView of(CheckpointRecord record) {
        return new CheckpointView(record.topology(), record.checkpointId(), record.status(), record.timing(),
                record.sizeBytes(), new Tasks(record.expectedTasks(), record.expectedIncarnations(), record.acks(),
                record.missingAcks()), record.failure());
    }
}
