package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes each task's checkpoint snapshot off the task thread: {@link #onSnapshot} only enqueues; a few named threads
 * ({@code steadfast-host-snapshot-upload-N}) store them and then ack the checkpoint to the router, or nack it with
 * the reason when storing failed. A full queue declines the snapshot at once, so a slow store never blocks
 * processing. Thread-safe.
 *
 * <p>An upload takes, with the oldest snapshot queued, every other one queued of the same topology and checkpoint (up
 * to {@link #BATCH_BYTES}), stores them in one call ({@link SnapshotStore#putAll}) and acks them in one report
 * ({@link CheckpointReporter#acknowledgeAll}): the snapshots a host's tasks take at one barrier arrive within
 * milliseconds, so the requests of a checkpoint grow with the hosts, not the tasks (a 32-task job on three hosts: 8
 * uploads and 8 ack requests instead of 32 and 32).
 *
 * <p>Each snapshot goes with the incarnation of the copy of its task that took it. One the checkpoint-service refuses
 * as of a superseded copy ({@link SupersededSnapshotException}: this host was frozen or cut off and its task recovered
 * elsewhere) is dropped like one of a closed checkpoint, neither retried nor acknowledged, and logged at WARN.
 */
public final class SnapshotUploader implements CheckpointListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotUploader.class);
    /** Bytes of snapshots one upload takes, about (it stops after the snapshot that passes it; one larger goes alone). */
    static final int BATCH_BYTES = 8 * 1024 * 1024;

    private final SnapshotStore store;
    private final CheckpointReporter reporter;
    private final BlockingQueue<Taken> queue;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong uploaded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param threads       uploads at once
     * @param queueCapacity snapshots waiting for an upload, at most
     */
    public SnapshotUploader(SnapshotStore store, CheckpointReporter reporter, int threads, int queueCapacity) {
        this.store = store;
        this.reporter = reporter;
        this.queue = new LinkedBlockingQueue<>(queueCapacity);
        for (int i = 1; i <= threads; i++) {
            Thread thread = new Thread(this::run, "steadfast-host-snapshot-upload-" + i);
            thread.setDaemon(true);
            this.threads.add(thread);
        }
        this.threads.forEach(Thread::start);
    }

    /** A snapshot waiting for its upload; compared by identity, so that only one upload takes it. */
    private static final class Taken {
        final TaskId task;
        final int incarnation;
        final long checkpointId;
        final OperatorSnapshot snapshot;
        final long syncNanos;
        final long takenAtNanos;

        Taken(TaskId task, int incarnation, long checkpointId, OperatorSnapshot snapshot, long syncNanos,
              long takenAtNanos) {
            this.task = task;
            this.incarnation = incarnation;
            this.checkpointId = checkpointId;
            this.snapshot = snapshot;
            this.syncNanos = syncNanos;
            this.takenAtNanos = takenAtNanos;
        }

        boolean sameCheckpoint(Taken other) {
            return checkpointId == other.checkpointId && task.topology().equals(other.task.topology());
        }
    }

    @Override
    public void onSnapshot(TaskId task, int incarnation, long checkpointId, OperatorSnapshot snapshot,
                           long syncNanos) {
        if (closed || !queue.offer(new Taken(task, incarnation, checkpointId, snapshot, syncNanos,
                System.nanoTime()))) {
            failed.incrementAndGet();
            String reason = closed ? "host shutting down" : "upload queue of " + queue.size() + " snapshots is full";
            LOG.warn("Snapshot of {} for checkpoint {} declined: {}", task, checkpointId, reason);
            // never block or call out from the task thread: the checkpoint times out at the router instead
        }
    }

    private void run() {
        while (!closed) {
            Taken first;
            try {
                first = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                upload(first);
            } catch (RuntimeException e) {
                LOG.error("Upload of the snapshots of checkpoint {} failed unexpectedly", first.checkpointId, e);
            }
        }
    }

    private void upload(Taken first) {
        List<Taken> batch = new ArrayList<>(List.of(first));
        Map<TaskId, TakenSnapshot> bytes = new LinkedHashMap<>();
        bytes.put(first.task, new TakenSnapshot(first.incarnation, first.snapshot.toBytes()));
        long size = bytes.get(first.task).bytes().length;
        for (Taken next : queue) {
            if (size >= BATCH_BYTES) {
                break;
            }
            if (next.sameCheckpoint(first) && queue.remove(next)) { // another upload may have taken it meanwhile
                batch.add(next);
                byte[] encoded = next.snapshot.toBytes();
                bytes.put(next.task, new TakenSnapshot(next.incarnation, encoded));
                size += encoded.length;
            }
        }
        long checkpointId = first.checkpointId;
        try {
            store.putAll(checkpointId, bytes);
        } catch (SupersededSnapshotException e) {
            LOG.warn("Snapshots of {} for checkpoint {} dropped: superseded. {}", bytes.keySet(), checkpointId,
                    e.getMessage());
            return;
        } catch (CheckpointClosedException e) {
            LOG.info("Snapshots of {} for checkpoint {} dropped: {}", bytes.keySet(), checkpointId, e.getMessage());
            return;
        } catch (RuntimeException e) {
            failed.addAndGet(batch.size());
            LOG.warn("Snapshots of {} for checkpoint {} not stored: {}", bytes.keySet(), checkpointId, e.getMessage());
            batch.forEach(taken -> reporter.decline(taken.task, taken.incarnation, checkpointId,
                    "STORE_UNAVAILABLE: " + e.getMessage()));
            return;
        }
        uploaded.addAndGet(batch.size());
        long storedAt = System.nanoTime();
        Map<TaskId, CheckpointReporter.SnapshotAck> acks = new LinkedHashMap<>();
        batch.forEach(taken -> acks.put(taken.task, new CheckpointReporter.SnapshotAck(taken.incarnation,
                bytes.get(taken.task).bytes().length, TimeUnit.NANOSECONDS.toMillis(taken.syncNanos),
                TimeUnit.NANOSECONDS.toMillis(storedAt - taken.takenAtNanos))));
        reporter.acknowledgeAll(checkpointId, acks);
    }

    public long uploaded() {
        return uploaded.get();
    }

    public long failed() {
        return failed.get();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        threads.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
    }
}
