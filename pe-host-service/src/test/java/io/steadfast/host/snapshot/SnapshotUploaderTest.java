package io.steadfast.host.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.time.Duration;
import java.util.Optional;
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

        @Override
        public void put(TaskId task, long checkpointId, byte[] snapshot) {
            calls.incrementAndGet();
            if (failNext > 0) {
                failNext--;
                throw new SnapshotStoreException("connection refused", null);
            }
            if (checkpointsClosed) {
                throw new CheckpointClosedException("checkpoint " + checkpointId + " already FAILED", null);
            }
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
        uploader.onSnapshot(TASK, 1, SNAPSHOT, 1_000_000);

        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 1);
        assertThat(reporter.acks.get(0)).isEqualTo("t/count#0 1 " + SNAPSHOT.toBytes().length);
        assertThat(flaky.memory.get(TASK, 1)).hasValueSatisfying(bytes ->
                assertThat(bytes).isEqualTo(SNAPSHOT.toBytes()));
    }

    @Test
    void retriesAQuickFailureAndStillAcks() {
        flaky.failNext = 2;

        uploader.onSnapshot(TASK, 1, SNAPSHOT, 0);

        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 1);
        assertThat(flaky.calls).hasValue(3);
        assertThat(reporter.nacks).isEmpty();
    }

    @Test
    void nacksWithTheReasonWhileTheStoreIsDownFailsFastOnceTheBreakerOpensAndResumesWhenItIsBack() {
        flaky.failNext = Integer.MAX_VALUE;
        for (long id = 1; id <= 4; id++) {
            uploader.onSnapshot(TASK, id, SNAPSHOT, 0);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.nacks.size() == 4);
        assertThat(reporter.nacks).allSatisfy(nack -> assertThat(nack).contains("STORE_UNAVAILABLE"));
        assertThat(store.circuitState()).isEqualTo(CircuitBreaker.State.OPEN);

        int callsBefore = flaky.calls.get();
        uploader.onSnapshot(TASK, 5, SNAPSHOT, 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.nacks.size() == 5);
        assertThat(flaky.calls.get()).as("an open breaker does not call the store").isEqualTo(callsBefore);
        assertThat(reporter.nacks.get(4)).contains("circuit breaker open");

        flaky.failNext = 0;
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            uploader.onSnapshot(TASK, 6, SNAPSHOT, 0);
            return !reporter.acks.isEmpty();
        });
        assertThat(flaky.memory.get(TASK, 6)).isPresent();
    }

    @Test
    void snapshotsOfCheckpointsThatAlreadyClosedAreDroppedWithoutTrippingTheBreaker() {
        flaky.checkpointsClosed = true;
        for (long id = 1; id <= 8; id++) {
            uploader.onSnapshot(TASK, id, SNAPSHOT, 0);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> flaky.calls.get() == 8);

        assertThat(flaky.calls).as("closed checkpoints are not retried").hasValue(8);
        assertThat(store.circuitState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(reporter.nacks).isEmpty();
        assertThat(reporter.acks).isEmpty();

        flaky.checkpointsClosed = false;
        uploader.onSnapshot(TASK, 9, SNAPSHOT, 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> reporter.acks.size() == 1);
    }
}
