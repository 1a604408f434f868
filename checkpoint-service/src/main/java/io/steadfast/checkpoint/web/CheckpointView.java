package io.steadfast.checkpoint.web;

import io.steadfast.checkpoint.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointFailure;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.checkpoint.checkpoint.CheckpointStatus;
import io.steadfast.checkpoint.checkpoint.TaskAck;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON form of a checkpoint record, with the tasks still to acknowledge; {@code expectedIncarnations} names the
 * tasks whose expected incarnation is not 0.
 */
record CheckpointView(
        TopologyId topology,
        CheckpointId checkpointId,
        CheckpointStatus status,
        Instant triggeredAt,
        @Nullable Instant completedAt,
        @Nullable Long durationMillis,
        long sizeBytes,
        List<TaskId> expectedTasks,
        Map<TaskId, Integer> expectedIncarnations,
        List<TaskAck> acks,
        List<TaskId> missingAcks,
        @Nullable CheckpointFailure failure) {

    static CheckpointView of(CheckpointRecord record) {
        return new CheckpointView(record.topology(), record.checkpointId(), record.status(), record.triggeredAt(),
                record.completedAt(), record.durationMillis(), record.sizeBytes(), record.expectedTasks(),
                record.expectedIncarnations(), record.acks(), record.missingAcks(), record.failure());
    }
}
