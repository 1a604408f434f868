package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes each task's checkpoint snapshot off the task thread: {@link #onSnapshot} only enqueues; a bounded pool
 * of named threads ({@code steadfast-host-snapshot-upload-N}) stores it and then acks the checkpoint to the
 * router, or nacks it with the reason when storing failed. A full queue declines the snapshot at once, so a slow
 * store never blocks processing. Thread-safe.
 */
public final class SnapshotUploader implements CheckpointListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotUploader.class);

    private final SnapshotStore store;
    private final CheckpointReporter reporter;
    private final ThreadPoolExecutor executor;
    private final AtomicLong uploaded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    public SnapshotUploader(SnapshotStore store, CheckpointReporter reporter, int threads, int queueCapacity) {
        this.store = store;
        this.reporter = reporter;
        AtomicInteger counter = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queueCapacity), runnable -> {
                    Thread thread = new Thread(runnable, "steadfast-host-snapshot-upload-" + counter.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.AbortPolicy());
    }

    @Override
    public void onSnapshot(TaskId task, long checkpointId, OperatorSnapshot snapshot, long syncNanos) {
        long takenAt = System.nanoTime();
        try {
            executor.execute(() -> upload(task, checkpointId, snapshot, syncNanos, takenAt));
        } catch (RejectedExecutionException e) {
            failed.incrementAndGet();
            String reason = "upload queue of " + executor.getQueue().size() + " snapshots is full"
                    + (executor.isShutdown() ? " (host shutting down)" : "");
            LOG.warn("Snapshot of {} for checkpoint {} declined: {}", task, checkpointId, reason);
            // never block or call out from the task thread: the checkpoint times out at the router instead
        }
    }

    private void upload(TaskId task, long checkpointId, OperatorSnapshot snapshot, long syncNanos, long takenAt) {
        byte[] bytes = snapshot.toBytes();
        try {
            store.put(task, checkpointId, bytes);
        } catch (CheckpointClosedException e) {
            LOG.info("Snapshot of {} for checkpoint {} dropped: {}", task, checkpointId, e.getMessage());
            return;
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            LOG.warn("Snapshot of {} for checkpoint {} not stored: {}", task, checkpointId, e.getMessage());
            reporter.decline(task, checkpointId, "STORE_UNAVAILABLE: " + e.getMessage());
            return;
        }
        uploaded.incrementAndGet();
        long asyncMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - takenAt);
        reporter.acknowledge(task, checkpointId, new CheckpointReporter.SnapshotAck(bytes.length,
                TimeUnit.NANOSECONDS.toMillis(syncNanos), asyncMillis));
    }

    public long uploaded() {
        return uploaded.get();
    }

    public long failed() {
        return failed.get();
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }
}
