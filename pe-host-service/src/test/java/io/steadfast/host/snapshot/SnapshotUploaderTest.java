package io.steadfast.host.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SnapshotUploaderTest {

    private static final TaskId TASK = TaskId.parse("t/count#0");
    private static final OperatorSnapshot SNAPSHOT = OperatorSnapshot.fromBytes(snapshotBytes());

    private final FlakyStore flaky = new FlakyStore();
    private final ResilientSnapshotStore store = new ResilientSnapshotStore(flaky, 3, Duration.ofMillis(5),
            Duration.ofMillis(300));
    private final RecordingReporter reporter = new RecordingReporter();
    private final SnapshotUploader uploader = new SnapshotUploader(store, reporter, 1, 8);

    @AfterEach
    void close() throws InterruptedException {
        uploader.close();
    }

    /** Counts calls; fails while down. */
    static final class FlakyStore implements SnapshotStore {
        final InMemorySnapshotStore memory = new InMemorySnapshotStore();
        final AtomicInteger calls = new AtomicInteger();
        volatile int failNext;
        volatile boolean checkpointsClosed;
        /** While set, every snapshot is refused as of a superseded copy of its task. */
        volatile boolean superseded;
        /** The incarnation each snapshot stored came with, as {@code <task> <checkpointId> <incarnation>}. */
        final List<String> incarnations = new CopyOnWriteArrayList<>();
        /** Each {@link #putAll} call as {@code <checkpointId> [<task>, ...]}. */
        final List<String> batches = new CopyOnWriteArrayList<>();
        /** While set, {@link #putAll} waits for it. */
        volatile CountDownLatch gate;

        @Override
        public void putAll(long checkpointId, Map<TaskId, TakenSnapshot> snapshots) {
            batches.add(checkpointId + " " + snapshots.keySet());
            CountDownLatch waitFor = gate;
            if (waitFor != null) {
                try {
                    waitFor.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            SnapshotStore.super.putAll(checkpointId, snapshots);
        }

        @Override
        public void put(TaskId task, long checkpointId, TakenSnapshot snapshot) {
            calls.incrementAndGet();
            if (failNext > 0) {
                failNext--;
                throw new SnapshotStoreException("connection refused", null);
            }
            if (checkpointsClosed) {
                throw new CheckpointClosedException("checkpoint " + checkpointId + " already FAILED", null);
            }
            if (superseded) {
                throw new SupersededSnapshotException("a newer copy of " + task + " took over", null);
            }
            incarnations.add(task + " " + checkpointId + " " + snapshot.incarnation());
            memory.put(task, checkpointId, snapshot);
        }

        @Override
        public Optional<byte[]> get(TaskId task, long checkpointId) {
            calls.incrementAndGet();
            return memory.get(task, checkpointId);
        }
    }

    /** A real snapshot in the runtime's format ("SFOS" magic, version 1), of a made-up state. */
    static byte[] snapshotBytes() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(64);
        out.writeInt(0x53464F53);
        out.writeByte(1);
        out.writeString("keyed-count");
        out.writeBytes(new byte[] {1, 2, 3});
        return out.toByteArray();
    }

    @Test
    void storesTheSnapshotAndAcksWithItsSize() {
        uploader.onSnapshot(TASK, 0, 1, SNAPSHOT, 1_000_000);

        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 1);
        assertThat(reporter.acks.get(0)).isEqualTo("t/count#0 1 " + SNAPSHOT.toBytes().length);
        assertThat(flaky.memory.get(TASK, 1)).hasValueSatisfying(bytes ->
                assertThat(bytes).isEqualTo(SNAPSHOT.toBytes()));
    }

    @Test
    void retriesAQuickFailureAndStillAcks() {
        flaky.failNext = 2;

        uploader.onSnapshot(TASK, 0, 1, SNAPSHOT, 0);

        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 1);
        assertThat(flaky.calls).hasValue(3);
        assertThat(reporter.nacks).isEmpty();
    }

    @Test
    void nacksWithTheReasonWhileTheStoreIsDownFailsFastOnceTheBreakerOpensAndResumesWhenItIsBack() {
        flaky.failNext = Integer.MAX_VALUE;
        for (long id = 1; id <= 4; id++) {
            uploader.onSnapshot(TASK, 0, id, SNAPSHOT, 0);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.nacks.size() == 4);
        assertThat(reporter.nacks).allSatisfy(nack -> assertThat(nack).contains("STORE_UNAVAILABLE"));
        assertThat(store.circuitState()).isEqualTo(CircuitBreaker.State.OPEN);

        int callsBefore = flaky.calls.get();
        uploader.onSnapshot(TASK, 0, 5, SNAPSHOT, 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.nacks.size() == 5);
        assertThat(flaky.calls.get()).as("an open breaker does not call the store").isEqualTo(callsBefore);
        assertThat(reporter.nacks.get(4)).contains("circuit breaker open");

        flaky.failNext = 0;
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            uploader.onSnapshot(TASK, 0, 6, SNAPSHOT, 0);
            return !reporter.acks.isEmpty();
        });
        assertThat(flaky.memory.get(TASK, 6)).isPresent();
    }

    @Test
    void snapshotsOfCheckpointsThatAlreadyClosedAreDroppedWithoutTrippingTheBreaker() {
        flaky.checkpointsClosed = true;
        for (long id = 1; id <= 8; id++) {
            uploader.onSnapshot(TASK, 0, id, SNAPSHOT, 0);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> flaky.calls.get() == 8);

        assertThat(flaky.calls).as("closed checkpoints are not retried").hasValue(8);
        assertThat(store.circuitState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(reporter.nacks).isEmpty();
        assertThat(reporter.acks).isEmpty();

        flaky.checkpointsClosed = false;
        uploader.onSnapshot(TASK, 0, 9, SNAPSHOT, 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 1);
    }

    @Test
    void storesAndAcksEachSnapshotWithTheIncarnationOfTheCopyThatTookIt() {
        uploader.onSnapshot(TASK, 3, 1, SNAPSHOT, 0);

        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 1);
        assertThat(flaky.incarnations).containsExactly("t/count#0 1 3");
        assertThat(reporter.ackedIncarnations).containsExactly(3);
    }

    @Test
    void snapshotsOfASupersededCopyAreDroppedNeitherRetriedNorAcknowledged() {
        flaky.superseded = true;
        for (long id = 1; id <= 6; id++) {
            uploader.onSnapshot(TASK, 1, id, SNAPSHOT, 0);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> flaky.calls.get() == 6);

        assertThat(flaky.calls).as("not retried").hasValue(6);
        assertThat(store.circuitState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(reporter.acks).isEmpty();
        assertThat(reporter.nacks).isEmpty();
        assertThat(flaky.memory.get(TASK, 1)).isEmpty();
    }

    @Test
    void snapshotsOfOneCheckpointQueuedDuringAnUploadAreStoredAndAckedTogether() {
        TaskId count1 = TaskId.parse("t/count#1");
        TaskId sink = TaskId.parse("t/sink#0");
        TaskId otherTopology = TaskId.parse("u/count#0");
        flaky.gate = new CountDownLatch(1);
        uploader.onSnapshot(TASK, 0, 1, SNAPSHOT, 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> flaky.batches.size() == 1); // the upload waits at the store

        uploader.onSnapshot(count1, 0, 1, SNAPSHOT, 0);
        uploader.onSnapshot(otherTopology, 0, 1, SNAPSHOT, 0);
        uploader.onSnapshot(sink, 0, 2, SNAPSHOT, 0);
        uploader.onSnapshot(sink, 0, 1, SNAPSHOT, 0);
        flaky.gate.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 5);
        assertThat(flaky.batches).as("one store call per topology and checkpoint, in the order queued")
                .containsExactly("1 [t/count#0]", "1 [t/count#1, t/sink#0]", "1 [u/count#0]", "2 [t/sink#0]");
        assertThat(reporter.ackBatches).containsExactly("1 [t/count#0]", "1 [t/count#1, t/sink#0]", "1 [u/count#0]",
                "2 [t/sink#0]");
        assertThat(flaky.memory.get(sink, 1)).hasValueSatisfying(bytes -> assertThat(bytes)
                .isEqualTo(SNAPSHOT.toBytes()));
        assertThat(flaky.memory.get(sink, 2)).isPresent();
    }

    @Test
    void aBatchTheStoreRefusesIsNackedForEachOfItsTasks() {
        flaky.gate = new CountDownLatch(1);
        uploader.onSnapshot(TASK, 0, 1, SNAPSHOT, 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> flaky.batches.size() == 1);
        uploader.onSnapshot(TaskId.parse("t/count#1"), 0, 2, SNAPSHOT, 0);
        uploader.onSnapshot(TaskId.parse("t/sink#0"), 0, 2, SNAPSHOT, 0);
        flaky.failNext = Integer.MAX_VALUE;
        flaky.gate.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.nacks.size() == 3);
        assertThat(reporter.nacks).allSatisfy(nack -> assertThat(nack).contains("STORE_UNAVAILABLE"))
                .anySatisfy(nack -> assertThat(nack).startsWith("t/count#1 2 "))
                .anySatisfy(nack -> assertThat(nack).startsWith("t/sink#0 2 "));
        assertThat(reporter.acks).isEmpty();
    }
}
