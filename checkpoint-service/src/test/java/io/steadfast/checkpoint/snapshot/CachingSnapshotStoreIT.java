package io.steadfast.checkpoint.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.store.EmbeddedStoreOverTcp;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cache in front of the embedded store over TCP: what it answers from memory, and that it never answers what the
 * store no longer holds. A snapshot is known to come from memory when its chunks were removed from the database
 * behind the stores' backs and it still reads whole.
 */
@Timeout(60)
class CachingSnapshotStoreIT {

    private static final TopologyId TOPOLOGY = new TopologyId("cached");
    private static final TaskId TASK = TaskId.parse("cached/count#0");
    private static final TaskId OTHER_TASK = TaskId.parse("cached/count#1");

    @RegisterExtension
    static final EmbeddedStoreOverTcp STORE = new EmbeddedStoreOverTcp();

    private MongoDatabase database;
    private MongoSnapshotStore durable;

    @BeforeEach
    void openStore() {
        database = STORE.freshDatabase("cache");
        durable = new MongoSnapshotStore(database, 64 * 1024, () -> { }, Clock.systemUTC());
    }

    private static SnapshotKey key(long checkpoint, TaskId task) {
        return SnapshotKey.of(TOPOLOGY, new CheckpointId(checkpoint), task);
    }

    private static byte[] bytes(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + seed);
        }
        return bytes;
    }

    private static Optional<byte[]> read(SnapshotStore store, SnapshotKey key) throws IOException {
        Optional<SnapshotContent> content = store.open(key);
        if (content.isEmpty()) {
            return Optional.empty();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        content.get().transferTo(out);
        return Optional.of(out.toByteArray());
    }

    /** Removes every chunk from the database, so that only a cached snapshot still reads whole. */
    private void dropChunksBehindTheStores() {
        database.getCollection("snapshot_chunks").deleteMany(new Document());
    }

    @Test
    void answersTheSnapshotsStoredLastFromMemory() throws IOException {
        CachingSnapshotStore cache = new CachingSnapshotStore(durable, 1024 * 1024);
        byte[] content = bytes(200_000, 1); // four chunks in the database
        StoredSnapshot stored = cache.put(key(1, TASK), new ByteArrayInputStream(content));

        dropChunksBehindTheStores();

        assertThat(read(cache, key(1, TASK))).contains(content);
        assertThat(cache.find(key(1, TASK))).contains(stored);
        assertThat(cache.cachedBytes()).isEqualTo(content.length);
    }

    @Test
    void answersTheSnapshotsOfABatchFromMemoryWithinTheBound() throws IOException {
        CachingSnapshotStore cache = new CachingSnapshotStore(durable, 1000);
        cache.put(key(4, TASK), new ByteArrayInputStream(bytes(100, 7)));
        List<StoredSnapshot> stored = cache.putAll(List.of(new SnapshotUpload(key(4, TASK), bytes(240, 1)),
                new SnapshotUpload(key(4, OTHER_TASK), bytes(251, 2)))); // over a quarter of the bound

        assertThat(stored).extracting(StoredSnapshot::sizeBytes).containsExactly(240L, 251L);
        assertThat(cache.isCached(key(4, TASK))).isTrue();
        assertThat(cache.isCached(key(4, OTHER_TASK))).as("too large to cache").isFalse();
        assertThat(read(durable, key(4, OTHER_TASK))).contains(bytes(251, 2));

        dropChunksBehindTheStores();

        assertThat(read(cache, key(4, TASK))).as("the batch's bytes, not those stored before").contains(bytes(240, 1));
        assertThat(cache.find(key(4, TASK))).contains(stored.get(0));
        assertThat(cache.cachedBytes()).isEqualTo(240);
    }

    @Test
    void aReplacedSnapshotReadsAsTheNewOne() throws IOException {
        CachingSnapshotStore cache = new CachingSnapshotStore(durable, 1024 * 1024);
        cache.put(key(1, TASK), new ByteArrayInputStream(bytes(1000, 1)));
        cache.put(key(1, TASK), new ByteArrayInputStream(bytes(700, 2)));

        assertThat(read(cache, key(1, TASK))).contains(bytes(700, 2));
        assertThat(read(durable, key(1, TASK))).contains(bytes(700, 2));
        assertThat(cache.cachedBytes()).isEqualTo(700);
    }

    @Test
    void deletionsLeaveNothingInMemoryThatTheStoreNoLongerHolds() throws IOException {
        CachingSnapshotStore cache = new CachingSnapshotStore(durable, 1024 * 1024);
        for (long checkpoint = 1; checkpoint <= 4; checkpoint++) {
            cache.put(key(checkpoint, TASK), new ByteArrayInputStream(bytes(100, (int) checkpoint)));
        }
        TaskId elsewhere = TaskId.parse("elsewhere/count#0");
        SnapshotKey otherTopology = SnapshotKey.of(elsewhere.topology(), new CheckpointId(1), elsewhere);
        cache.put(otherTopology, new ByteArrayInputStream(bytes(100, 9)));

        assertThat(cache.deleteOlderThan(TOPOLOGY, new CheckpointId(3), Set.of(new CheckpointId(1)))).isEqualTo(1);

        assertThat(read(cache, key(2, TASK))).isEmpty();
        assertThat(cache.isCached(key(1, TASK))).isTrue();
        assertThat(cache.isCached(key(3, TASK))).isTrue();
        assertThat(cache.deleteTopology(TOPOLOGY)).isEqualTo(3);
        for (long checkpoint = 1; checkpoint <= 4; checkpoint++) {
            assertThat(read(cache, key(checkpoint, TASK))).as("checkpoint %d", checkpoint).isEmpty();
        }
        assertThat(read(cache, otherTopology)).contains(bytes(100, 9));
        assertThat(cache.cachedBytes()).isEqualTo(100);
    }

    @Test
    void keepsTheNewestWithinItsBoundAndReadsTheRestFromTheStore() throws IOException {
        CachingSnapshotStore cache = new CachingSnapshotStore(durable, 1000);
        cache.put(key(1, TASK), new ByteArrayInputStream(bytes(240, 1)));
        cache.put(key(1, OTHER_TASK), new ByteArrayInputStream(bytes(240, 2)));
        cache.put(key(2, TASK), new ByteArrayInputStream(bytes(240, 3)));
        cache.put(key(2, OTHER_TASK), new ByteArrayInputStream(bytes(240, 4)));
        cache.put(key(3, TASK), new ByteArrayInputStream(bytes(240, 5)));
        cache.put(key(3, OTHER_TASK), new ByteArrayInputStream(bytes(251, 6))); // over a quarter of the bound

        assertThat(cache.isCached(key(1, TASK))).as("evicted, the oldest").isFalse();
        assertThat(cache.isCached(key(3, OTHER_TASK))).as("too large to cache").isFalse();
        assertThat(cache.cachedBytes()).isEqualTo(4 * 240).isLessThanOrEqualTo(1000);
        assertThat(read(cache, key(1, TASK))).contains(bytes(240, 1));
        assertThat(read(cache, key(3, OTHER_TASK))).contains(bytes(251, 6));
    }

    @Test
    void aSnapshotDeletedWhileItWasStoredIsNotCached() throws Exception {
        CountDownLatch stored = new CountDownLatch(1);
        CountDownLatch deleted = new CountDownLatch(1);
        SnapshotStore slowToReturn = new SnapshotStore() {
            @Override
            public StoredSnapshot put(SnapshotKey key, InputStream content) throws IOException {
                StoredSnapshot snapshot = durable.put(key, content);
                stored.countDown();
                try {
                    assertThat(deleted.await(10, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return snapshot;
            }

            @Override
            public Optional<StoredSnapshot> find(SnapshotKey key) {
                return durable.find(key);
            }

            @Override
            public Optional<SnapshotContent> open(SnapshotKey key) {
                return durable.open(key);
            }

            @Override
            public List<StoredSnapshot> list(TopologyId topology, CheckpointId checkpointId) {
                return durable.list(topology, checkpointId);
            }

            @Override
            public long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep) {
                return durable.deleteOlderThan(topology, before, keep);
            }

            @Override
            public long deleteTopology(TopologyId topology) {
                return durable.deleteTopology(topology);
            }
        };
        CachingSnapshotStore cache = new CachingSnapshotStore(slowToReturn, 1024 * 1024);
        CompletableFuture<StoredSnapshot> upload = CompletableFuture.supplyAsync(() -> {
            try {
                return cache.put(key(1, TASK), new ByteArrayInputStream(bytes(100, 1)));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(stored.await(10, TimeUnit.SECONDS)).isTrue();

        cache.deleteOlderThan(TOPOLOGY, new CheckpointId(5), Set.of());
        deleted.countDown();
        upload.get(10, TimeUnit.SECONDS);

        assertThat(cache.isCached(key(1, TASK))).isFalse();
        assertThat(read(cache, key(1, TASK))).isEmpty();
    }
}
