package io.steadfast.checkpoint.checkpoint;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.ne;
import static com.mongodb.client.model.Filters.nin;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import io.steadfast.checkpoint.CheckpointId;
import io.steadfast.checkpoint.store.StoreDurability;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * Checkpoint records in the {@code checkpoints} collection, one document per (topology, checkpointId) with the
 * acks embedded. State changes are single conditional updates ({@code status: PENDING} in the filter).
 */
public class MongoCheckpointStore implements CheckpointStore {

    static final String CHECKPOINTS = "checkpoints";

    private final MongoCollection<Document> checkpoints;
    private final StoreDurability durability;

    public MongoCheckpointStore(MongoDatabase database, StoreDurability durability) {
        this.checkpoints = database.getCollection(CHECKPOINTS);
        this.durability = durability;
        checkpoints.createIndex(Indexes.ascending("topology", "checkpointId"), new IndexOptions().unique(true));
    }

    @Override
    public boolean create(CheckpointRecord record) {
        try {
            checkpoints.insertOne(toDocument(record));
        } catch (MongoWriteException e) {
            if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
                return false;
            }
            throw e;
        }
        durability.sync();
        return true;
    }

    @Override
    public Optional<CheckpointRecord> find(TopologyId topology, CheckpointId checkpointId) {
        return Optional.ofNullable(checkpoints.find(key(topology, checkpointId)).first())
                .map(MongoCheckpointStore::toRecord);
    }

    @Override
    public List<CheckpointRecord> list(TopologyId topology) {
        List<CheckpointRecord> result = new ArrayList<>();
        for (Document document : checkpoints.find(eq("topology", topology.value()))
                .sort(Sorts.descending("checkpointId")).batchSize(500)) {
            result.add(toRecord(document));
        }
        return result;
    }

    @Override
    public Optional<CheckpointRecord> latestCompleted(TopologyId topology) {
        return Optional.ofNullable(checkpoints.find(and(eq("topology", topology.value()),
                        eq("status", CheckpointStatus.COMPLETED.name())))
                .sort(Sorts.descending("checkpointId")).limit(1).first()).map(MongoCheckpointStore::toRecord);
    }

    @Override
    public Optional<CheckpointRecord> addAck(TopologyId topology, CheckpointId checkpointId, TaskAck ack) {
        Bson pending = and(key(topology, checkpointId), eq("status", CheckpointStatus.PENDING.name()));
        Document ackDocument = toDocument(ack);
        FindOneAndUpdateOptions after = new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER);
        Document updated = checkpoints.findOneAndUpdate(and(pending, ne("acks.task", ack.task().toString())),
                Updates.push("acks", ackDocument), after);
        if (updated == null) {
            // a repeated ack of the same task (a retry) replaces the earlier one
            updated = checkpoints.findOneAndUpdate(and(pending, eq("acks.task", ack.task().toString())),
                    Updates.set("acks.$", ackDocument), after);
        }
        if (updated == null) {
            return Optional.empty();
        }
        durability.sync();
        return Optional.of(toRecord(updated));
    }

    @Override
    public Optional<CheckpointRecord> markCompleted(TopologyId topology, CheckpointId checkpointId, List<TaskAck> acks,
            Instant completedAt, long durationMillis, long sizeBytes) {
        return finish(topology, checkpointId, Updates.combine(
                Updates.set("acks", acks.stream().map(MongoCheckpointStore::toDocument).toList()),
                Updates.set("status", CheckpointStatus.COMPLETED.name()),
                Updates.set("completedAt", Date.from(completedAt)),
                Updates.set("durationMillis", durationMillis),
                Updates.set("sizeBytes", sizeBytes)));
    }

    @Override
    public Optional<CheckpointRecord> markCompleted(TopologyId topology, CheckpointId checkpointId,
            Instant completedAt, long durationMillis, long sizeBytes) {
        return finish(topology, checkpointId, Updates.combine(
                Updates.set("status", CheckpointStatus.COMPLETED.name()),
                Updates.set("completedAt", Date.from(completedAt)),
                Updates.set("durationMillis", durationMillis),
                Updates.set("sizeBytes", sizeBytes)));
    }

    @Override
    public Optional<CheckpointRecord> markFailed(TopologyId topology, CheckpointId checkpointId, Instant failedAt,
            long durationMillis, CheckpointFailure failure) {
        return finish(topology, checkpointId, Updates.combine(
                Updates.set("status", CheckpointStatus.FAILED.name()),
                Updates.set("completedAt", Date.from(failedAt)),
                Updates.set("durationMillis", durationMillis),
                Updates.set("failure", new Document("reason", failure.reason().name())
                        .append("message", failure.message()))));
    }

    private Optional<CheckpointRecord> finish(TopologyId topology, CheckpointId checkpointId, Bson update) {
        Document updated = checkpoints.findOneAndUpdate(
                and(key(topology, checkpointId), eq("status", CheckpointStatus.PENDING.name())), update,
                new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
        if (updated == null) {
            return Optional.empty();
        }
        durability.sync();
        return Optional.of(toRecord(updated));
    }

    @Override
    public long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep) {
        long deleted = checkpoints.deleteMany(and(eq("topology", topology.value()),
                lt("checkpointId", before.value()),
                nin("checkpointId", keep.stream().map(CheckpointId::value).toList()))).getDeletedCount();
        durability.sync();
        return deleted;
    }

    @Override
    public long deleteTopology(TopologyId topology) {
        long deleted = checkpoints.deleteMany(eq("topology", topology.value())).getDeletedCount();
        durability.sync();
        return deleted;
    }

    private static Bson key(TopologyId topology, CheckpointId checkpointId) {
        return and(eq("topology", topology.value()), eq("checkpointId", checkpointId.value()));
    }

    private static Document toDocument(CheckpointRecord record) {
        return new Document("topology", record.topology().value())
                .append("checkpointId", record.checkpointId().value())
                .append("status", record.status().name())
                .append("triggeredAt", Date.from(record.triggeredAt()))
                .append("expectedTasks", record.expectedTasks().stream().map(TaskId::toString).toList())
                .append("expectedIncarnations", record.expectedIncarnations().entrySet().stream()
                        .map(expected -> new Document("task", expected.getKey().toString())
                                .append("incarnation", expected.getValue()))
                        .toList())
                .append("acks", record.acks().stream().map(MongoCheckpointStore::toDocument).toList());
    }

    private static Document toDocument(TaskAck ack) {
        return new Document("task", ack.task().toString())
                .append("sizeBytes", ack.sizeBytes())
                .append("ackedAt", Date.from(ack.ackedAt()))
                .append("syncMillis", ack.syncMillis())
                .append("asyncMillis", ack.asyncMillis());
    }

    /** Records stored before incarnations were expected have none: every task's is 0. */
    private static Map<TaskId, Integer> expectedIncarnations(Document document) {
        Map<TaskId, Integer> incarnations = new HashMap<>();
        document.getList("expectedIncarnations", Document.class, List.of()).forEach(expected ->
                incarnations.put(TaskId.parse(expected.getString("task")), expected.getInteger("incarnation")));
        return incarnations;
    }

    private static CheckpointRecord toRecord(Document document) {
        List<TaskAck> acks = document.getList("acks", Document.class, List.of()).stream()
                .map(ack -> new TaskAck(TaskId.parse(ack.getString("task")), ack.getLong("sizeBytes"),
                        ack.getDate("ackedAt").toInstant(), ack.getLong("syncMillis"), ack.getLong("asyncMillis")))
                .toList();
        Long storedSize = document.getLong("sizeBytes");
        long sizeBytes = storedSize != null ? storedSize : acks.stream().mapToLong(TaskAck::sizeBytes).sum();
        Document failure = document.get("failure", Document.class);
        Date completedAt = document.getDate("completedAt");
        return new CheckpointRecord(
                new TopologyId(document.getString("topology")),
                new CheckpointId(document.getLong("checkpointId")),
                CheckpointStatus.valueOf(document.getString("status")),
                document.getDate("triggeredAt").toInstant(),
                completedAt == null ? null : completedAt.toInstant(),
                document.getLong("durationMillis"),
                sizeBytes,
                document.getList("expectedTasks", String.class, List.of()).stream().map(TaskId::parse).toList(),
                expectedIncarnations(document),
                acks,
                failure == null ? null : new CheckpointFailure(
                        CheckpointFailureReason.valueOf(failure.getString("reason")), failure.getString("message")));
    }
}
