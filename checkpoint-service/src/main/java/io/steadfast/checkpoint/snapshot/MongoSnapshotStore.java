package io.steadfast.checkpoint.snapshot;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.nin;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.FindOneAndReplaceOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import io.steadfast.checkpoint.CheckpointId;
import io.steadfast.checkpoint.store.StoreDurability;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Binary;
import org.bson.types.ObjectId;

/**
 * Snapshots in two collections: {@code snapshots} holds one document per (topology, checkpointId, task) naming the
 * upload whose chunks are current; {@code snapshot_chunks} holds the bytes, one document per chunk. An upload
 * writes its chunks first and then swaps the snapshot document to point at them, so a reader never sees a
 * half-written snapshot; the replaced upload's chunks are deleted afterwards.
 */
public class MongoSnapshotStore implements SnapshotStore {

    static final String SNAPSHOTS = "snapshots";
    static final String CHUNKS = "snapshot_chunks";
    /** Chunks fetched per round trip when reading: the embedded server ignores the 16 MiB batch limit. */
    private static final int READ_BATCH = 2;
    private static final int DUPLICATE_KEY_RETRIES = 3;

    private final MongoCollection<Document> snapshots;
    private final MongoCollection<Document> chunks;
    private final int chunkSize;
    private final StoreDurability durability;
    private final Clock clock;

    public MongoSnapshotStore(MongoDatabase database, int chunkSize, StoreDurability durability, Clock clock) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunk size must be positive, was " + chunkSize);
        }
        this.snapshots = database.getCollection(SNAPSHOTS);
        this.chunks = database.getCollection(CHUNKS);
        this.chunkSize = chunkSize;
        this.durability = durability;
        this.clock = clock;
        snapshots.createIndex(Indexes.ascending("topology", "checkpointId", "task"), new IndexOptions().unique(true));
        chunks.createIndex(Indexes.ascending("upload", "n"), new IndexOptions().unique(true));
        chunks.createIndex(Indexes.ascending("topology", "checkpointId"));
    }

    @Override
    public StoredSnapshot put(SnapshotKey key, InputStream content) throws IOException {
        ObjectId upload = new ObjectId();
        long size = 0;
        int count = 0;
        try {
            byte[] buffer = new byte[chunkSize];
            while (true) {
                int filled = content.readNBytes(buffer, 0, chunkSize);
                if (filled == 0) {
                    break;
                }
                byte[] data = filled == chunkSize ? buffer : Arrays.copyOf(buffer, filled);
                chunks.insertOne(new Document("upload", upload)
                        .append("topology", key.topology().value())
                        .append("checkpointId", key.checkpointId().value())
                        .append("n", count)
                        .append("data", new Binary(data)));
                size += filled;
                count++;
                if (filled < chunkSize) {
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            chunks.deleteMany(eq("upload", upload));
            throw e;
        }
        Instant storedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Document document = keyFilter(key)
                .append("upload", upload)
                .append("sizeBytes", size)
                .append("chunks", count)
                .append("chunkSize", chunkSize)
                .append("storedAt", Date.from(storedAt));
        Document previous = replace(key, document);
        if (previous != null) {
            chunks.deleteMany(eq("upload", previous.getObjectId("upload")));
        }
        durability.sync();
        return new StoredSnapshot(key.topology(), key.checkpointId(), key.task(), size, count, storedAt);
    }

    /** Swaps the snapshot document; two concurrent first uploads of one key can collide on the unique index. */
    private Document replace(SnapshotKey key, Document document) {
        for (int attempt = 1; ; attempt++) {
            try {
                return snapshots.findOneAndReplace(keyFilter(key), document,
                        new FindOneAndReplaceOptions().upsert(true).returnDocument(ReturnDocument.BEFORE));
            } catch (MongoCommandException | MongoWriteException e) {
                if (!isDuplicateKey(e) || attempt >= DUPLICATE_KEY_RETRIES) {
                    throw e;
                }
            }
        }
    }

    private static boolean isDuplicateKey(RuntimeException e) {
        if (e instanceof MongoWriteException write) {
            return write.getError().getCategory() == ErrorCategory.DUPLICATE_KEY;
        }
        return ErrorCategory.fromErrorCode(((MongoCommandException) e).getErrorCode()) == ErrorCategory.DUPLICATE_KEY;
    }

    @Override
    public Optional<StoredSnapshot> find(SnapshotKey key) {
        return Optional.ofNullable(snapshots.find(keyFilter(key)).first()).map(MongoSnapshotStore::toSnapshot);
    }

    @Override
    public Optional<SnapshotContent> open(SnapshotKey key) {
        Document document = snapshots.find(keyFilter(key)).first();
        if (document == null) {
            return Optional.empty();
        }
        return Optional.of(new ChunkedContent(toSnapshot(document), document.getObjectId("upload")));
    }

    @Override
    public List<StoredSnapshot> list(TopologyId topology, CheckpointId checkpointId) {
        List<StoredSnapshot> result = new ArrayList<>();
        for (Document document : snapshots.find(and(eq("topology", topology.value()),
                eq("checkpointId", checkpointId.value())))) {
            result.add(toSnapshot(document));
        }
        result.sort((a, b) -> a.task().compareTo(b.task()));
        return result;
    }

    @Override
    public long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep) {
        Bson filter = and(eq("topology", topology.value()), lt("checkpointId", before.value()),
                nin("checkpointId", keep.stream().map(CheckpointId::value).toList()));
        long deleted = snapshots.deleteMany(filter).getDeletedCount();
        // also removes the chunks of uploads that died before their snapshot document was written
        chunks.deleteMany(filter);
        durability.sync();
        return deleted;
    }

    @Override
    public long deleteTopology(TopologyId topology) {
        long deleted = snapshots.deleteMany(eq("topology", topology.value())).getDeletedCount();
        chunks.deleteMany(eq("topology", topology.value()));
        durability.sync();
        return deleted;
    }

    private static Document keyFilter(SnapshotKey key) {
        return new Document("topology", key.topology().value())
                .append("checkpointId", key.checkpointId().value())
                .append("task", key.task().toString());
    }

    private static StoredSnapshot toSnapshot(Document document) {
        return new StoredSnapshot(new TopologyId(document.getString("topology")),
                new CheckpointId(document.getLong("checkpointId")),
                TaskId.parse(document.getString("task")),
                document.getLong("sizeBytes"),
                document.getInteger("chunks"),
                document.getDate("storedAt").toInstant());
    }

    private final class ChunkedContent implements SnapshotContent {

        private final StoredSnapshot snapshot;
        private final ObjectId upload;

        ChunkedContent(StoredSnapshot snapshot, ObjectId upload) {
            this.snapshot = snapshot;
            this.upload = upload;
        }

        @Override
        public StoredSnapshot snapshot() {
            return snapshot;
        }

        @Override
        public void transferTo(OutputStream out) throws IOException {
            int expected = 0;
            long written = 0;
            try (MongoCursor<Document> cursor = chunks.find(eq("upload", upload))
                    .sort(Sorts.ascending("n")).batchSize(READ_BATCH).iterator()) {
                while (cursor.hasNext()) {
                    Document chunk = cursor.next();
                    if (chunk.getInteger("n") != expected) {
                        throw vanished();
                    }
                    byte[] data = chunk.get("data", Binary.class).getData();
                    out.write(data);
                    written += data.length;
                    expected++;
                }
            }
            if (expected != snapshot.chunks() || written != snapshot.sizeBytes()) {
                throw vanished();
            }
        }

        private SnapshotNotFoundException vanished() {
            return new SnapshotNotFoundException(snapshot.key(), "The " + snapshot.key()
                    + " was replaced or deleted while it was being read; read it again");
        }
    }
}
