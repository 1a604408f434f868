package io.steadfast.checkpoint.snapshot;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.nin;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.FindOneAndReplaceOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.ReturnDocument;
import io.steadfast.runtime.plan.CheckpointId;
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
import java.util.HashSet;
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
 *
 * <p>Chunks are read and deleted one by one by their full key {@code (upload, n)} (a snapshot document says how many
 * there are), never by a query on part of it: the embedded store (mongo-java-server) uses an index only for a query
 * on exactly its keys and ignores non-unique indexes, so every {@code upload}-only or checkpoint-range query scanned
 * every chunk stored. A host recovering four tasks of a 32-task job waited 20-100 ms for their snapshots that way.
 * Chunks no snapshot document names (an upload cut short by the service's death) are swept when the store opens
 * and when a topology is deleted.
 */
public class MongoSnapshotStore implements SnapshotStore {

    static final String SNAPSHOTS = "snapshots";
    static final String CHUNKS = "snapshot_chunks";
    private static final int DUPLICATE_KEY_RETRIES = 3;
    private static final BulkWriteOptions UNORDERED = new BulkWriteOptions().ordered(false);

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
        sweepOrphanedChunks(clock.instant());
    }

    /**
     * Deletes the chunks of uploads begun before {@code openedAt} that no snapshot document names: uploads cut short
     * when the service died. (One checkpoint-service writes to a store: the embedded store is locked to its process;
     * a second service on a shared MongoDB would sweep the first one's uploads in progress.)
     */
    private void sweepOrphanedChunks(Instant openedAt) {
        Set<ObjectId> current = new HashSet<>();
        for (Document document : snapshots.find().projection(new Document("upload", 1))) {
            current.add(document.getObjectId("upload"));
        }
        List<ObjectId> orphaned = new ArrayList<>();
        for (ObjectId upload : chunks.distinct("upload", ObjectId.class)) {
            if (!current.contains(upload) && upload.getDate().toInstant().isBefore(openedAt)) {
                orphaned.add(upload);
            }
        }
        orphaned.forEach(upload -> chunks.deleteMany(eq("upload", upload)));
        if (!orphaned.isEmpty()) {
            durability.sync();
        }
    }

    private void deleteChunks(Document snapshot) {
        deleteChunks(snapshot.getObjectId("upload"), snapshot.getInteger("chunks"));
    }

    /** Deletes chunks {@code 0..count-1} of an upload, each by its full key. */
    private void deleteChunks(ObjectId upload, int count) {
        for (int n = 0; n < count; n++) {
            chunks.deleteOne(chunkKey(upload, n));
        }
    }

    private static Document chunkKey(ObjectId upload, int n) {
        return new Document("upload", upload).append("n", n);
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
                chunks.insertOne(chunk(key, upload, count, data));
                size += filled;
                count++;
                if (filled < chunkSize) {
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            deleteChunks(upload, count + 1); // the chunk being written when it failed may have been stored
            throw e;
        }
        Instant storedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        swapIn(key, snapshotDocument(key, upload, size, count, storedAt));
        durability.sync();
        return new StoredSnapshot(key.topology(), key.checkpointId(), key.task(), size, count, storedAt);
    }

    /**
     * Writes the chunks of every snapshot in one insert, then their documents in one more, and makes them durable with
     * one sync: a batch costs about as much as one {@link #put}. A snapshot already stored under its key (a repeated
     * upload) is swapped in as {@link #put} does. On failure, the chunks of the snapshots known not to be written are
     * deleted; those the failure leaves in doubt stay for the sweep at the next start.
     */
    @Override
    public List<StoredSnapshot> putAll(List<SnapshotUpload> uploads) {
        if (uploads.isEmpty()) {
            return List.of();
        }
        Instant storedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        List<ObjectId> ids = new ArrayList<>();
        List<Document> chunkDocuments = new ArrayList<>();
        List<Document> documents = new ArrayList<>();
        List<StoredSnapshot> stored = new ArrayList<>();
        for (SnapshotUpload snapshot : uploads) {
            ObjectId upload = new ObjectId();
            byte[] content = snapshot.content();
            int count = 0;
            for (int from = 0; from < content.length; from += chunkSize) {
                byte[] data = content.length <= chunkSize ? content // one chunk, the usual case: no copy
                        : Arrays.copyOfRange(content, from, Math.min(content.length, from + chunkSize));
                chunkDocuments.add(chunk(snapshot.key(), upload, count++, data));
            }
            SnapshotKey key = snapshot.key();
            ids.add(upload);
            documents.add(snapshotDocument(key, upload, content.length, count, storedAt));
            stored.add(new StoredSnapshot(key.topology(), key.checkpointId(), key.task(), content.length, count,
                    storedAt));
        }
        if (!chunkDocuments.isEmpty()) {
            try {
                chunks.insertMany(chunkDocuments);
            } catch (RuntimeException e) {
                for (int i = 0; i < ids.size(); i++) {
                    deleteChunksQuietly(ids.get(i), documents.get(i).getInteger("chunks"), e);
                }
                throw e;
            }
        }
        insertDocuments(uploads, documents);
        durability.sync();
        return stored;
    }

    /**
     * Inserts the snapshot documents in one request, each on its own (unordered); one whose key is taken already is
     * swapped in instead. If another error refused some, their chunks are deleted and it is thrown. (If the request
     * failed without saying which were written, the chunks stay: a written document may name them.)
     */
    private void insertDocuments(List<SnapshotUpload> uploads, List<Document> documents) {
        List<Integer> taken = new ArrayList<>();
        try {
            snapshots.insertMany(documents, new InsertManyOptions().ordered(false));
        } catch (MongoBulkWriteException e) {
            boolean other = e.getWriteErrors().stream()
                    .anyMatch(error -> error.getCategory() != ErrorCategory.DUPLICATE_KEY);
            for (BulkWriteError error : e.getWriteErrors()) {
                if (other) {
                    Document refused = documents.get(error.getIndex());
                    deleteChunksQuietly(refused.getObjectId("upload"), refused.getInteger("chunks"), e);
                } else {
                    taken.add(error.getIndex());
                }
            }
            if (other) {
                throw e;
            }
        }
        for (int index : taken) {
            Document document = documents.get(index);
            document.remove("_id"); // the insert gave it one; the document it replaces keeps its own
            swapIn(uploads.get(index).key(), document);
        }
    }

    /** Points {@code key} at the upload {@code document} names, and deletes the chunks of the one it replaced. */
    private void swapIn(SnapshotKey key, Document document) {
        Document previous = replace(key, document);
        if (previous != null) {
            deleteChunks(previous);
        }
    }

    private void deleteChunksQuietly(ObjectId upload, int count, RuntimeException failure) {
        try {
            deleteChunks(upload, count);
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private Document snapshotDocument(SnapshotKey key, ObjectId upload, long size, int count, Instant storedAt) {
        return keyFilter(key)
                .append("upload", upload)
                .append("sizeBytes", size)
                .append("chunks", count)
                .append("chunkSize", chunkSize)
                .append("storedAt", Date.from(storedAt));
    }

    private static Document chunk(SnapshotKey key, ObjectId upload, int n, byte[] data) {
        return new Document("upload", upload)
                .append("topology", key.topology().value())
                .append("checkpointId", key.checkpointId().value())
                .append("n", n)
                .append("data", new Binary(data));
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

    /**
     * Finds the snapshots to delete, then deletes their documents in one request and their chunks in one more, each by
     * its full key: retention runs at every completed checkpoint, and one request per snapshot and chunk (two per
     * snapshot) made it the longest part of a completion of a 32-task job. A snapshot deleted meanwhile by another
     * call has its chunks deleted twice, which changes nothing.
     */
    @Override
    public long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep) {
        Bson filter = and(eq("topology", topology.value()), lt("checkpointId", before.value()),
                nin("checkpointId", keep.stream().map(CheckpointId::value).toList()));
        List<DeleteOneModel<Document>> documents = new ArrayList<>();
        List<DeleteOneModel<Document>> chunkKeys = new ArrayList<>();
        for (Document snapshot : snapshots.find(filter)) {
            documents.add(new DeleteOneModel<>(new Document("topology", snapshot.getString("topology"))
                    .append("checkpointId", snapshot.getLong("checkpointId"))
                    .append("task", snapshot.getString("task"))));
            ObjectId upload = snapshot.getObjectId("upload");
            for (int n = 0; n < snapshot.getInteger("chunks"); n++) {
                chunkKeys.add(new DeleteOneModel<>(chunkKey(upload, n)));
            }
        }
        if (documents.isEmpty()) {
            return 0;
        }
        long deleted = snapshots.bulkWrite(documents, UNORDERED).getDeletedCount();
        if (!chunkKeys.isEmpty()) {
            chunks.bulkWrite(chunkKeys, UNORDERED);
        }
        durability.sync();
        return deleted;
    }

    @Override
    public long deleteTopology(TopologyId topology) {
        long deleted = snapshots.deleteMany(eq("topology", topology.value())).getDeletedCount();
        chunks.deleteMany(eq("topology", topology.value())); // with any chunks of uploads cut short
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
            long written = 0;
            for (int n = 0; n < snapshot.chunks(); n++) {
                Document chunk = chunks.find(chunkKey(upload, n)).first();
                if (chunk == null) {
                    throw vanished();
                }
                byte[] data = chunk.get("data", Binary.class).getData();
                out.write(data);
                written += data.length;
            }
            if (written != snapshot.sizeBytes()) {
                throw vanished();
            }
        }

        private SnapshotNotFoundException vanished() {
            return new SnapshotNotFoundException(snapshot.key(), "The " + snapshot.key()
                    + " was replaced or deleted while it was being read; read it again");
        }
    }
}
