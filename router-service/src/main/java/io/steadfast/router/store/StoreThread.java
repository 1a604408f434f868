package io.steadfast.router.store;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread on which a {@link WriteBehind} calls its store, {@code steadfast-router-store-<records>}: a daemon
 * started by the constructor and stopped by {@link #close}. A task that throws is logged; the thread goes on.
 */
final class StoreThread {

    private static final Logger LOG = LoggerFactory.getLogger(StoreThread.class);

    private final String records;
    private final ScheduledThreadPoolExecutor executor;

    StoreThread(String records) {
        this.records = records;
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread t = new Thread(runnable, "steadfast-router-store-" + records);
            t.setDaemon(true);
            return t;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    void execute(Runnable task) {
        try {
            executor.execute(() -> runGuarded(task));
        } catch (RejectedExecutionException closed) {
            LOG.debug("Not writing {}: closed", records);
        }
    }

    void schedule(Runnable task, Duration delay) {
        try {
            executor.schedule(() -> runGuarded(task), delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            LOG.debug("Not retrying {}: closed", records);
        }
    }

    void scheduleWithFixedDelay(Runnable task, Duration interval) {
        long millis = interval.toMillis();
        executor.scheduleWithFixedDelay(() -> runGuarded(task), millis, millis, TimeUnit.MILLISECONDS);
    }

    static void runGuarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.error("Router store step failed", e);
        }
    }

    /** Stops after the tasks already queued (not the delayed ones) are done, waiting at most {@code timeout}. */
    void close(Duration timeout) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
