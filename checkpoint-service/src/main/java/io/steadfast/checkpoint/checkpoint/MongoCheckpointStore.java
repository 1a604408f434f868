package io.steadfast.checkpoint.checkpoint;

import static org.springframework.data.mongodb.core.query.Criteria.where;
import static org.springframework.data.mongodb.core.query.Query.query;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.store.StoreDurability;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.FindAndModifyOptions;
import org.springframework.data.mongodb.core.MongoOperations;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Update;

/**
 * Checkpoint records in the {@code checkpoints} collection through Spring Data ({@link StoredCheckpoint}), one
 * document per (topology, checkpointId) with the acks embedded. State changes are single conditional updates
 * ({@code status: PENDING} in the filter), so concurrent acknowledgements never lose one another.
 */
public class MongoCheckpointStore implements CheckpointStore {

    static final String CHECKPOINTS = "checkpoints";
    private static final Sort NEWEST_FIRST = Sort.by(Sort.Direction.DESC, "checkpointId");
    private static final FindAndModifyOptions RETURN_UPDATED = FindAndModifyOptions.options().returnNew(true);

    private final MongoOperations mongo;
    private final StoreDurability durability;

    /**
     * Creates the collection's indexes if they are missing.
     *
     * @param mongo a template made by {@link CheckpointRecordsMapping#template}
     */
    public MongoCheckpointStore(MongoOperations mongo, StoreDurability durability) {
        this.mongo = mongo;
        this.durability = durability;
        CheckpointRecordsMapping.ensureIndexes(mongo, StoredCheckpoint.class);
    }

    @Override
    public boolean create(CheckpointRecord record) {
        try {
            mongo.insert(StoredCheckpoint.of(record));
        } catch (DuplicateKeyException e) {
            return false;
        }
        durability.sync();
        return true;
    }

    @Override
    public Optional<CheckpointRecord> find(TopologyId topology, CheckpointId checkpointId) {
        return Optional.ofNullable(mongo.findOne(query(key(topology, checkpointId)), StoredCheckpoint.class))
                .map(StoredCheckpoint::toRecord);
    }

    @Override
    public List<CheckpointRecord> list(TopologyId topology) {
        return mongo.find(query(where("topology").is(topology.value())).with(NEWEST_FIRST).cursorBatchSize(500),
                StoredCheckpoint.class).stream().map(StoredCheckpoint::toRecord).toList();
    }

    @Override
    public Optional<CheckpointRecord> latestCompleted(TopologyId topology) {
        return Optional.ofNullable(mongo.findOne(query(where("topology").is(topology.value())
                        .and("status").is(CheckpointStatus.COMPLETED)).with(NEWEST_FIRST).limit(1),
                StoredCheckpoint.class)).map(StoredCheckpoint::toRecord);
    }

    @Override
    public Optional<CheckpointRecord> addAck(TopologyId topology, CheckpointId checkpointId, TaskAck ack) {
        String task = ack.task().toString();
        StoredCheckpoint.Ack stored = StoredCheckpoint.Ack.of(ack);
        StoredCheckpoint updated = mongo.findAndModify(query(pending(topology, checkpointId).and("acks.task").ne(task)),
                new Update().push("acks", stored), RETURN_UPDATED, StoredCheckpoint.class);
        if (updated == null) {
            // a repeated ack of the same task (a retry) replaces the earlier one
            updated = mongo.findAndModify(query(pending(topology, checkpointId).and("acks.task").is(task)),
                    new Update().set("acks.$", stored), RETURN_UPDATED, StoredCheckpoint.class);
        }
        if (updated == null) {
            return Optional.empty();
        }
        durability.sync();
        return Optional.of(updated.toRecord());
    }

    @Override
    public Optional<CheckpointRecord> markCompleted(TopologyId topology, CheckpointId checkpointId, List<TaskAck> acks,
            Instant completedAt, long durationMillis, long sizeBytes) {
        return finish(topology, checkpointId, completed(completedAt, durationMillis, sizeBytes)
                .set("acks", StoredCheckpoint.acks(acks)));
    }

    @Override
    public Optional<CheckpointRecord> markCompleted(TopologyId topology, CheckpointId checkpointId,
            Instant completedAt, long durationMillis, long sizeBytes) {
        return finish(topology, checkpointId, completed(completedAt, durationMillis, sizeBytes));
    }

    private static Update completed(Instant completedAt, long durationMillis, long sizeBytes) {
        return new Update().set("status", CheckpointStatus.COMPLETED).set("completedAt", completedAt)
                .set("durationMillis", durationMillis).set("sizeBytes", sizeBytes);
    }

    @Override
    public Optional<CheckpointRecord> markFailed(TopologyId topology, CheckpointId checkpointId, Instant failedAt,
            long durationMillis, CheckpointFailure failure, List<TaskAck> acks) {
        return finish(topology, checkpointId, new Update().set("status", CheckpointStatus.FAILED)
                .set("completedAt", failedAt).set("durationMillis", durationMillis).set("failure", failure)
                .set("acks", StoredCheckpoint.acks(acks)));
    }

    private Optional<CheckpointRecord> finish(TopologyId topology, CheckpointId checkpointId, Update update) {
        StoredCheckpoint updated = mongo.findAndModify(query(pending(topology, checkpointId)), update, RETURN_UPDATED,
                StoredCheckpoint.class);
        if (updated == null) {
            return Optional.empty();
        }
        durability.sync();
        return Optional.of(updated.toRecord());
    }

    @Override
    public long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep) {
        long deleted = mongo.remove(query(where("topology").is(topology.value())
                .and("checkpointId").lt(before.value()).nin(keep.stream().map(CheckpointId::value).toList())),
                StoredCheckpoint.class).getDeletedCount();
        durability.sync();
        return deleted;
    }

    @Override
    public long deleteTopology(TopologyId topology) {
        long deleted = mongo.remove(query(where("topology").is(topology.value())), StoredCheckpoint.class)
                .getDeletedCount();
        durability.sync();
        return deleted;
    }

    private static Criteria key(TopologyId topology, CheckpointId checkpointId) {
        return where("topology").is(topology.value()).and("checkpointId").is(checkpointId.value());
    }

    private static Criteria pending(TopologyId topology, CheckpointId checkpointId) {
        return key(topology, checkpointId).and("status").is(CheckpointStatus.PENDING);
    }
}
