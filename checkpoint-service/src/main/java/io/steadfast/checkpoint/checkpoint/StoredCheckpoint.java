package io.steadfast.checkpoint.checkpoint;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bson.types.ObjectId;
import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.mongodb.core.index.CompoundIndex;
import org.springframework.data.mongodb.core.mapping.Document;

/**
 * A {@link CheckpointRecord} as stored in the collection {@code checkpoints}, one document per (topology,
 * checkpointId), mapped by Spring Data field by field: ids as their text or number, the acks embedded, the expected
 * incarnations as a list of {@code {task, incarnation}} (a task id is not a safe field name). The unique index on
 * (topology, checkpointId) keeps the name the driver gave it before, so that an existing database keeps its index.
 * Mutable fields, as Spring Data fills them; made and read only by {@link MongoCheckpointStore}.
 */
@Document(MongoCheckpointStore.CHECKPOINTS)
@CompoundIndex(name = "topology_1_checkpointId_1", def = "{'topology': 1, 'checkpointId': 1}", unique = true)
final class StoredCheckpoint {

    @Id
    @Nullable ObjectId id;
    String topology;
    long checkpointId;
    CheckpointStatus status;
    Instant triggeredAt;
    @Nullable Instant completedAt;
    @Nullable Long durationMillis;
    /** Absent until completed: then the acks' sum stands for it. */
    @Nullable Long sizeBytes;
    List<String> expectedTasks = List.of();
    /** Absent in records written before incarnations were expected: every task's is 0. */
    List<Incarnation> expectedIncarnations = List.of();
    List<Ack> acks = List.of();
    @Nullable CheckpointFailure failure;

    /** A task's expected incarnation. */
    record Incarnation(String task, int incarnation) {
    }

    /** A stored {@link TaskAck}. */
    record Ack(String task, long sizeBytes, Instant ackedAt, long syncMillis, long asyncMillis) {

        static Ack of(TaskAck ack) {
            return new Ack(ack.task().toString(), ack.sizeBytes(), ack.ackedAt(), ack.syncMillis(), ack.asyncMillis());
        }

        TaskAck toAck() {
            return new TaskAck(TaskId.parse(task), sizeBytes, ackedAt, syncMillis, asyncMillis);
        }
    }

    /** A new record as created: no size, timing or failure yet (those are set by the updates that end it). */
    static StoredCheckpoint of(CheckpointRecord record) {
        StoredCheckpoint stored = new StoredCheckpoint();
        stored.topology = record.topology().value();
        stored.checkpointId = record.checkpointId().value();
        stored.status = record.status();
        stored.triggeredAt = record.triggeredAt();
        stored.completedAt = record.completedAt();
        stored.durationMillis = record.durationMillis();
        stored.expectedTasks = record.expectedTasks().stream().map(TaskId::toString).toList();
        stored.expectedIncarnations = record.expectedIncarnations().entrySet().stream()
                .map(expected -> new Incarnation(expected.getKey().toString(), expected.getValue())).toList();
        stored.acks = acks(record.acks());
        stored.failure = record.failure();
        return stored;
    }

    static List<Ack> acks(List<TaskAck> acks) {
        return acks.stream().map(Ack::of).toList();
    }

    CheckpointRecord toRecord() {
        List<TaskAck> taskAcks = new ArrayList<>();
        acks.forEach(ack -> taskAcks.add(ack.toAck()));
        Map<TaskId, Integer> incarnations = new HashMap<>();
        expectedIncarnations.forEach(expected -> incarnations.put(TaskId.parse(expected.task()),
                expected.incarnation()));
        long size = sizeBytes != null ? sizeBytes : taskAcks.stream().mapToLong(TaskAck::sizeBytes).sum();
        return new CheckpointRecord(new TopologyId(topology), new CheckpointId(checkpointId), status,
                new CheckpointTiming(triggeredAt, completedAt, durationMillis), size,
                new ExpectedTasks(expectedTasks.stream().map(TaskId::parse).toList(), incarnations), taskAcks,
                failure);
    }
}
