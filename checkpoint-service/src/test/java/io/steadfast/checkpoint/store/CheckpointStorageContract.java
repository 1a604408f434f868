package io.steadfast.checkpoint.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointFailure;
import io.steadfast.checkpoint.checkpoint.CheckpointFailureReason;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.checkpoint.checkpoint.CheckpointStatus;
import io.steadfast.checkpoint.checkpoint.CheckpointTiming;
import io.steadfast.checkpoint.checkpoint.ExpectedTasks;
import io.steadfast.checkpoint.checkpoint.MongoCheckpointStore;
import io.steadfast.checkpoint.checkpoint.TaskAck;
import io.steadfast.checkpoint.snapshot.MongoSnapshotStore;
import io.steadfast.checkpoint.snapshot.SnapshotContent;
import io.steadfast.checkpoint.snapshot.SnapshotKey;
import io.steadfast.checkpoint.snapshot.SnapshotUpload;
import io.steadfast.checkpoint.snapshot.SnapshotNotFoundException;
import io.steadfast.checkpoint.snapshot.StoredSnapshot;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bson.Document;
import org.bson.types.Binary;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * What every store the service can run on must do: the embedded server over TCP and a real MongoDB run the same
 * tests through the same store code. Each test gets a database of its own.
 */
@Timeout(120)
public abstract class CheckpointStorageContract {

    /** Small, so that a few MiB span several chunks. */
    protected static final int CHUNK = 256 * 1024;
    private static final TopologyId TOPOLOGY = new TopologyId("word-count");
    private static final TaskId SOURCE = TaskId.parse("word-count/source#0");
    private static final TaskId SINK = TaskId.parse("word-count/sink#1");
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    protected MongoDatabase database;
    protected MongoSnapshotStore snapshots;
    protected MongoCheckpointStore checkpoints;
    protected int syncs;

    /** A client's database on the store under test, reached over TCP. */
    protected abstract MongoDatabase database(String name);

    /** A template with the checkpoint records' mapping on {@code database}, through the same client. */
    protected abstract MongoTemplate records(MongoDatabase database);

    @BeforeEach
    void openStores() {
        database = database("contract-" + UUID.randomUUID().toString().substring(0, 8));
        StoreDurability counting = () -> syncs++;
        snapshots = new MongoSnapshotStore(database, CHUNK, counting, Clock.fixed(T0, ZoneOffset.UTC));
        checkpoints = new MongoCheckpointStore(records(database), counting);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private byte[] read(SnapshotKey key) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        snapshots.open(key).orElseThrow().transferTo(out);
        return out.toByteArray();
    }

    private static SnapshotKey key(long checkpoint, TaskId task) {
        return SnapshotKey.of(task.topology(), new CheckpointId(checkpoint), task);
    }

    // --- snapshots

    @Test
    void storesAndReadsBackASmallSnapshotDurably() throws IOException {
        byte[] bytes = "state of the source".getBytes();
        int syncsBefore = syncs;

        StoredSnapshot stored = snapshots.put(key(1, SOURCE), new ByteArrayInputStream(bytes));

        assertThat(stored.sizeBytes()).isEqualTo(bytes.length);
        assertThat(stored.chunks()).isEqualTo(1);
        assertThat(syncs).isGreaterThan(syncsBefore);
        assertThat(read(key(1, SOURCE))).isEqualTo(bytes);
        assertThat(snapshots.find(key(1, SOURCE))).contains(stored);
    }

    @Test
    void splitsALargeSnapshotIntoChunksAndReassemblesIt() throws IOException {
        byte[] bytes = random(5 * CHUNK + 123, 1);

        StoredSnapshot stored = snapshots.put(key(1, SOURCE), new ByteArrayInputStream(bytes));

        assertThat(stored.chunks()).isEqualTo(6);
        assertThat(database.getCollection("snapshot_chunks").countDocuments()).isEqualTo(6);
        assertThat(read(key(1, SOURCE))).isEqualTo(bytes);
    }

    @Test
    void storesAnEmptySnapshotAndOneOfExactlyOneChunk() throws IOException {
        assertThat(snapshots.put(key(1, SOURCE), InputStream.nullInputStream()).chunks()).isZero();
        assertThat(read(key(1, SOURCE))).isEmpty();

        byte[] exact = random(CHUNK, 2);
        assertThat(snapshots.put(key(1, SINK), new ByteArrayInputStream(exact)).chunks()).isEqualTo(1);
        assertThat(read(key(1, SINK))).isEqualTo(exact);
    }

    @Test
    void storesABatchWithOneSyncAndReadsEverySnapshotBack() throws IOException {
        TaskId count = TaskId.parse("word-count/count#0");
        byte[] large = random(2 * CHUNK + 7, 11);
        byte[] small = "count state".getBytes();
        int syncsBefore = syncs;

        List<StoredSnapshot> stored = snapshots.putAll(List.of(new SnapshotUpload(key(2, SOURCE), large),
                new SnapshotUpload(key(2, count), small), new SnapshotUpload(key(2, SINK), new byte[0])));

        assertThat(syncs).isEqualTo(syncsBefore + 1);
        assertThat(stored).extracting(StoredSnapshot::task).containsExactly(SOURCE, count, SINK);
        assertThat(stored).extracting(StoredSnapshot::chunks).containsExactly(3, 1, 0);
        assertThat(stored).extracting(StoredSnapshot::sizeBytes).containsExactly((long) large.length,
                (long) small.length, 0L);
        assertThat(read(key(2, SOURCE))).isEqualTo(large);
        assertThat(read(key(2, count))).isEqualTo(small);
        assertThat(read(key(2, SINK))).isEmpty();
        assertThat(snapshots.list(TOPOLOGY, new CheckpointId(2))).hasSize(3);
        assertThat(database.getCollection("snapshot_chunks").countDocuments()).isEqualTo(4);
    }

    @Test
    void aBatchReplacesSnapshotsStoredBeforeAndDropsTheirChunks() throws IOException {
        snapshots.put(key(3, SOURCE), new ByteArrayInputStream(random(3 * CHUNK, 12)));
        byte[] again = random(CHUNK / 3, 13);
        byte[] sink = random(CHUNK + 1, 14);

        snapshots.putAll(List.of(new SnapshotUpload(key(3, SOURCE), again), new SnapshotUpload(key(3, SINK), sink)));

        assertThat(read(key(3, SOURCE))).isEqualTo(again);
        assertThat(read(key(3, SINK))).isEqualTo(sink);
        assertThat(snapshots.find(key(3, SOURCE)).orElseThrow().chunks()).isEqualTo(1);
        assertThat(database.getCollection("snapshot_chunks").countDocuments()).isEqualTo(3);
    }

    @Test
    void overwritingReplacesTheSnapshotAndDropsTheOldChunks() throws IOException {
        snapshots.put(key(1, SOURCE), new ByteArrayInputStream(random(3 * CHUNK, 3)));
        byte[] second = random(CHUNK / 2, 4);

        snapshots.put(key(1, SOURCE), new ByteArrayInputStream(second));

        assertThat(read(key(1, SOURCE))).isEqualTo(second);
        assertThat(snapshots.list(TOPOLOGY, new CheckpointId(1))).hasSize(1);
        assertThat(database.getCollection("snapshot_chunks").countDocuments()).isEqualTo(1);
    }

    @Test
    void aFailedUploadKeepsThePreviousSnapshotAndLeavesNoChunks() throws IOException {
        byte[] first = random(CHUNK + 5, 5);
        snapshots.put(key(1, SOURCE), new ByteArrayInputStream(first));
        InputStream breaksAfterTwoChunks = new InputStream() {
            private int read;

            @Override
            public int read() throws IOException {
                if (++read > 2 * CHUNK + 10) {
                    throw new IOException("connection reset");
                }
                return 7;
            }
        };

        assertThatThrownBy(() -> snapshots.put(key(1, SOURCE), breaksAfterTwoChunks))
                .isInstanceOf(IOException.class);

        assertThat(read(key(1, SOURCE))).isEqualTo(first);
        assertThat(database.getCollection("snapshot_chunks").countDocuments()).isEqualTo(2);
    }

    @Test
    void aSnapshotWhoseChunkVanishedIsNotReadHalfway() throws IOException {
        snapshots.put(key(1, SOURCE), new ByteArrayInputStream(random(2 * CHUNK + 3, 6)));
        database.getCollection("snapshot_chunks").deleteOne(new Document("n", 1));

        SnapshotContent content = snapshots.open(key(1, SOURCE)).orElseThrow();
        assertThatThrownBy(() -> content.transferTo(OutputStream.nullOutputStream()))
                .isInstanceOf(SnapshotNotFoundException.class).hasMessageContaining("read it again");
    }

    @Test
    void opensBySweepingTheChunksOfUploadsCutShortBeforeIt() throws IOException {
        byte[] kept = random(CHUNK + 1, 7);
        snapshots.put(key(1, SOURCE), new ByteArrayInputStream(kept));
        ObjectId cutShort = new ObjectId(Date.from(T0.minusSeconds(60)));
        ObjectId begunAfterOpening = new ObjectId(Date.from(T0.plusSeconds(1)));
        MongoCollection<Document> chunks = database.getCollection("snapshot_chunks");
        for (int n = 0; n < 2; n++) {
            chunks.insertOne(new Document("upload", cutShort).append("topology", TOPOLOGY.value())
                    .append("checkpointId", 2L).append("n", n).append("data", new Binary(new byte[3])));
        }
        chunks.insertOne(new Document("upload", begunAfterOpening).append("topology", TOPOLOGY.value())
                .append("checkpointId", 3L).append("n", 0).append("data", new Binary(new byte[3])));

        MongoSnapshotStore reopened = new MongoSnapshotStore(database, CHUNK, () -> syncs++,
                Clock.fixed(T0, ZoneOffset.UTC));

        assertThat(chunks.countDocuments(new Document("upload", cutShort))).isZero();
        assertThat(chunks.countDocuments(new Document("upload", begunAfterOpening))).isEqualTo(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        reopened.open(key(1, SOURCE)).orElseThrow().transferTo(out);
        assertThat(out.toByteArray()).isEqualTo(kept);
    }

    @Test
    void readsNothingForAMissingSnapshot() {
        assertThat(snapshots.open(key(9, SOURCE))).isEmpty();
        assertThat(snapshots.find(key(9, SOURCE))).isEmpty();
        assertThat(snapshots.list(TOPOLOGY, new CheckpointId(9))).isEmpty();
    }

    @Test
    void listsTheSnapshotsOfOneCheckpointByTask() throws IOException {
        snapshots.put(key(2, SINK), new ByteArrayInputStream(new byte[3]));
        snapshots.put(key(2, SOURCE), new ByteArrayInputStream(new byte[5]));
        snapshots.put(key(3, SOURCE), new ByteArrayInputStream(new byte[7]));

        assertThat(snapshots.list(TOPOLOGY, new CheckpointId(2)))
                .extracting(StoredSnapshot::task, StoredSnapshot::sizeBytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(SINK, 3L),
                        org.assertj.core.groups.Tuple.tuple(SOURCE, 5L));
    }

    @Test
    void deletesSnapshotsOlderThanACheckpointExceptTheKeptOnes() throws IOException {
        for (long checkpoint = 1; checkpoint <= 5; checkpoint++) {
            snapshots.put(key(checkpoint, SOURCE), new ByteArrayInputStream(random(CHUNK + 1, checkpoint)));
        }

        long deleted = snapshots.deleteOlderThan(TOPOLOGY, new CheckpointId(4), Set.of(new CheckpointId(2)));

        assertThat(deleted).isEqualTo(2);
        for (long checkpoint : new long[] {2, 4, 5}) {
            assertThat(snapshots.find(key(checkpoint, SOURCE))).as("checkpoint %d", checkpoint).isPresent();
        }
        assertThat(snapshots.find(key(1, SOURCE))).isEmpty();
        assertThat(snapshots.find(key(3, SOURCE))).isEmpty();
        assertThat(database.getCollection("snapshot_chunks").countDocuments()).isEqualTo(6);
    }

    @Test
    void deletesEverySnapshotOfOneTopologyOnly() throws IOException {
        TaskId other = TaskId.parse("other/source#0");
        snapshots.put(key(1, SOURCE), new ByteArrayInputStream(new byte[10]));
        snapshots.put(key(1, other), new ByteArrayInputStream(new byte[10]));

        assertThat(snapshots.deleteTopology(TOPOLOGY)).isEqualTo(1);

        assertThat(snapshots.find(key(1, SOURCE))).isEmpty();
        assertThat(snapshots.find(key(1, other))).isPresent();
        assertThat(database.getCollection("snapshot_chunks").countDocuments(new Document("topology", "other")))
                .isEqualTo(1);
    }

    // --- checkpoint records

    private CheckpointRecord pending(long id) {
        return CheckpointRecord.pending(TOPOLOGY, new CheckpointId(id), List.of(SOURCE, SINK), Map.of(), T0);
    }

    private static TaskAck ack(TaskId task, long size) {
        return new TaskAck(task, size, T0.plusSeconds(1), 3, 40);
    }

    @Test
    void createsARecordOnceAndReadsItBack() {
        assertThat(checkpoints.create(pending(1))).isTrue();
        assertThat(checkpoints.create(pending(1))).isFalse();

        CheckpointRecord read = checkpoints.find(TOPOLOGY, new CheckpointId(1)).orElseThrow();
        assertThat(read).isEqualTo(pending(1));
        assertThat(read.missingAcks()).containsExactly(SOURCE, SINK);
    }

    @Test
    void keepsTheIncarnationEachTaskIsExpectedInWithTheRecord() {
        CheckpointRecord created = CheckpointRecord.pending(TOPOLOGY, new CheckpointId(1), List.of(SOURCE, SINK),
                Map.of(SINK, 2, SOURCE, 0), T0);
        checkpoints.create(created);

        CheckpointRecord read = checkpoints.find(TOPOLOGY, new CheckpointId(1)).orElseThrow();

        assertThat(read).isEqualTo(created);
        assertThat(read.expectedIncarnationOf(SINK)).isEqualTo(2);
        assertThat(read.expectedIncarnationOf(SOURCE)).isZero();
        assertThat(checkpoints.addAck(TOPOLOGY, new CheckpointId(1), ack(SINK, 3)).orElseThrow()
                .expectedIncarnations()).containsExactly(Map.entry(SINK, 2));
    }

    @Test
    void addsAcksAndReplacesARepeatedAckOfTheSameTask() {
        checkpoints.create(pending(1));

        checkpoints.addAck(TOPOLOGY, new CheckpointId(1), ack(SOURCE, 10));
        CheckpointRecord record = checkpoints.addAck(TOPOLOGY, new CheckpointId(1), ack(SOURCE, 12)).orElseThrow();

        assertThat(record.acks()).extracting(TaskAck::sizeBytes).containsExactly(12L);
        assertThat(record.acks().get(0)).isEqualTo(ack(SOURCE, 12));
        assertThat(record.sizeBytes()).isEqualTo(12);
        assertThat(record.missingAcks()).containsExactly(SINK);
    }

    @Test
    void concurrentAcksOfManyTasksAreAllKept() throws Exception {
        List<TaskId> tasks = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            tasks.add(TaskId.parse("word-count/map#" + i));
        }
        checkpoints.create(CheckpointRecord.pending(TOPOLOGY, new CheckpointId(1), tasks, Map.of(), T0));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> acks = new ArrayList<>();
            for (TaskId task : tasks) {
                acks.add(pool.submit(() -> checkpoints.addAck(TOPOLOGY, new CheckpointId(1), ack(task, 1))));
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        } finally {
            pool.shutdownNow();
        }

        CheckpointRecord record = checkpoints.find(TOPOLOGY, new CheckpointId(1)).orElseThrow();
        assertThat(record.acks()).hasSize(24);
        assertThat(record.missingAcks()).isEmpty();
    }

    @Test
    void completesOnlyAPendingRecordAndThenRefusesAcks() {
        checkpoints.create(pending(1));

        CheckpointRecord completed = checkpoints.markCompleted(TOPOLOGY, new CheckpointId(1), T0.plusSeconds(2),
                2000, 99).orElseThrow();

        assertThat(completed.status()).isEqualTo(CheckpointStatus.COMPLETED);
        assertThat(completed.completedAt()).isEqualTo(T0.plusSeconds(2));
        assertThat(completed.durationMillis()).isEqualTo(2000);
        assertThat(completed.sizeBytes()).isEqualTo(99);
        assertThat(checkpoints.markCompleted(TOPOLOGY, new CheckpointId(1), T0, 0, 0)).isEmpty();
        assertThat(checkpoints.markFailed(TOPOLOGY, new CheckpointId(1), T0, 0,
                new CheckpointFailure(CheckpointFailureReason.TIMEOUT, "late"), List.of())).isEmpty();
        assertThat(checkpoints.addAck(TOPOLOGY, new CheckpointId(1), ack(SOURCE, 1))).isEmpty();
        assertThat(checkpoints.markCompleted(TOPOLOGY, new CheckpointId(7), T0, 0, 0)).isEmpty();
    }

    @Test
    void completesWithItsAcksInOneWrite() {
        checkpoints.create(pending(1));
        checkpoints.addAck(TOPOLOGY, new CheckpointId(1), ack(SOURCE, 1));

        CheckpointRecord completed = checkpoints.markCompleted(TOPOLOGY, new CheckpointId(1),
                List.of(ack(SOURCE, 3), ack(SINK, 4)), T0.plusSeconds(1), 1000, 7).orElseThrow();

        assertThat(completed.status()).isEqualTo(CheckpointStatus.COMPLETED);
        assertThat(completed.acks()).extracting(TaskAck::task).containsExactly(SOURCE, SINK);
        assertThat(completed.missingAcks()).isEmpty();
        assertThat(checkpoints.find(TOPOLOGY, new CheckpointId(1)).orElseThrow().acks()).hasSize(2);
        assertThat(checkpoints.markCompleted(TOPOLOGY, new CheckpointId(1), List.of(), T0, 0, 0)).as("not pending")
                .isEmpty();
    }

    @Test
    void failsAPendingRecordWithItsReasonAndTheAcksTakenBeforeIt() {
        checkpoints.create(pending(1));

        CheckpointRecord failed = checkpoints.markFailed(TOPOLOGY, new CheckpointId(1), T0.plusSeconds(10), 10_000,
                new CheckpointFailure(CheckpointFailureReason.TIMEOUT, "sink#1 did not acknowledge"),
                List.of(ack(SOURCE, 3))).orElseThrow();

        assertThat(failed.status()).isEqualTo(CheckpointStatus.FAILED);
        assertThat(failed.failure()).isEqualTo(new CheckpointFailure(CheckpointFailureReason.TIMEOUT,
                "sink#1 did not acknowledge"));
        assertThat(failed.acks()).extracting(TaskAck::task).containsExactly(SOURCE);
        assertThat(failed.missingAcks()).containsExactly(SINK);
        assertThat(checkpoints.find(TOPOLOGY, new CheckpointId(1)).orElseThrow()).isEqualTo(failed);
    }

    @Test
    void listsNewestFirstAndFindsTheLatestCompleted() {
        for (long id : new long[] {3, 1, 2, 4}) {
            checkpoints.create(pending(id));
        }
        checkpoints.markCompleted(TOPOLOGY, new CheckpointId(2), T0, 0, 0);
        checkpoints.markCompleted(TOPOLOGY, new CheckpointId(3), T0, 0, 0);

        assertThat(checkpoints.list(TOPOLOGY)).extracting(record -> record.checkpointId().value())
                .containsExactly(4L, 3L, 2L, 1L);
        assertThat(checkpoints.latestCompleted(TOPOLOGY).orElseThrow().checkpointId()).isEqualTo(new CheckpointId(3));
        assertThat(checkpoints.latestCompleted(new TopologyId("none"))).isEmpty();
    }

    @Test
    void deletesRecordsOlderThanACheckpointExceptTheKeptOnesAndWholeTopologies() {
        for (long id = 1; id <= 5; id++) {
            checkpoints.create(pending(id));
        }
        checkpoints.create(CheckpointRecord.pending(new TopologyId("other"), new CheckpointId(1),
                List.of(TaskId.parse("other/a#0")), Map.of(), T0));

        assertThat(checkpoints.deleteOlderThan(TOPOLOGY, new CheckpointId(4), Set.of(new CheckpointId(1))))
                .isEqualTo(2);
        assertThat(checkpoints.list(TOPOLOGY)).extracting(record -> record.checkpointId().value())
                .containsExactly(5L, 4L, 1L);

        assertThat(checkpoints.deleteTopology(TOPOLOGY)).isEqualTo(3);
        assertThat(checkpoints.list(TOPOLOGY)).isEmpty();
        assertThat(checkpoints.list(new TopologyId("other"))).hasSize(1);
    }

    // --- checkpoint records as documents (the Spring Data mapping)

    @Test
    void storesACompletedRecordWithEveryFieldUnderItsKnownFieldNames() {
        CheckpointId id = new CheckpointId(7);
        checkpoints.create(CheckpointRecord.pending(TOPOLOGY, id, List.of(SOURCE, SINK), Map.of(SINK, 2),
                T0.plusMillis(250)));
        TaskAck source = new TaskAck(SOURCE, 100, T0.plusMillis(10), 1, 2);
        TaskAck sink = new TaskAck(SINK, 200, T0.plusMillis(20), 3, 4);
        checkpoints.addAck(TOPOLOGY, id, source);
        checkpoints.markCompleted(TOPOLOGY, id, List.of(source, sink), T0.plusSeconds(1), 1000, 300);

        assertThat(checkpoints.find(TOPOLOGY, id).orElseThrow()).isEqualTo(new CheckpointRecord(TOPOLOGY, id,
                CheckpointStatus.COMPLETED, new CheckpointTiming(T0.plusMillis(250), T0.plusSeconds(1), 1000L), 300,
                new ExpectedTasks(List.of(SOURCE, SINK), Map.of(SINK, 2)), List.of(source, sink), null));
        Document stored = database.getCollection("checkpoints").find().first();
        assertThat(stored).doesNotContainKey("_class").containsEntry("topology", TOPOLOGY.value())
                .containsEntry("checkpointId", 7L).containsEntry("status", "COMPLETED")
                .containsEntry("triggeredAt", Date.from(T0.plusMillis(250))).containsEntry("sizeBytes", 300L)
                .containsEntry("expectedTasks", List.of(SOURCE.toString(), SINK.toString()));
        assertThat(stored.getList("expectedIncarnations", Document.class))
                .containsExactly(new Document("task", SINK.toString()).append("incarnation", 2));
        assertThat(stored.getList("acks", Document.class).get(1)).isEqualTo(new Document("task", SINK.toString())
                .append("sizeBytes", 200L).append("ackedAt", Date.from(T0.plusMillis(20)))
                .append("syncMillis", 3L).append("asyncMillis", 4L));
    }

    @Test
    void readsARecordWrittenBeforeIncarnationsAndSizesWereStored() {
        database.getCollection("checkpoints").insertOne(new Document("topology", TOPOLOGY.value())
                .append("checkpointId", 3L).append("status", "PENDING").append("triggeredAt", Date.from(T0))
                .append("expectedTasks", List.of(SOURCE.toString())).append("acks", List.of(new Document("task",
                        SOURCE.toString()).append("sizeBytes", 64L).append("ackedAt", Date.from(T0))
                        .append("syncMillis", 1L).append("asyncMillis", 1L))));

        CheckpointRecord read = checkpoints.find(TOPOLOGY, new CheckpointId(3)).orElseThrow();
        assertThat(read.expectedIncarnations()).isEmpty();
        assertThat(read.sizeBytes()).as("the acks' sum").isEqualTo(64);
        assertThat(read.timing()).isEqualTo(CheckpointTiming.pending(T0));
    }

    @Test
    void declaresAUniqueIndexOnTopologyAndCheckpointIdUnderTheDriversName() {
        assertThat(database.getCollection("checkpoints").listIndexes().into(new ArrayList<>())).anySatisfy(index -> {
            assertThat(index.getString("name")).isEqualTo("topology_1_checkpointId_1");
            assertThat(index.get("key", Document.class))
                    .isEqualTo(new Document("topology", 1).append("checkpointId", 1));
            assertThat(index.getBoolean("unique")).isTrue();
        });
    }
}
