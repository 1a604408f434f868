package io.steadfast.router.scheduling;

import io.steadfast.runtime.concurrent.DaemonThreads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread a {@link HostProvisioner} acts on, and only while it is started: a periodic reconciliation plus the
 * actions handed to it. Stopped, it drops what is handed to it. Thread-safe.
 */
public final class SchedulingThread {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulingThread.class);

    private final String name;
    private final Clock clock;
    private volatile @Nullable ScheduledExecutorService executor;
    private volatile Instant startedAt = Instant.MIN;

    public SchedulingThread(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
    }

    /** Starts the thread, running {@code reconcile} at once and then {@code period} after each run; false if running. */
    public synchronized boolean start(Duration period, Runnable reconcile) {
        if (executor != null) {
            return false;
        }
        startedAt = clock.instant();
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(new DaemonThreads(name));
        executor = thread;
        thread.scheduleWithFixedDelay(reconcile, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return true;
    }

    /** Stops the thread (interrupting what runs) and waits up to 5 s for it; false if it was not running. */
    public synchronized boolean stop() {
        ScheduledExecutorService thread = executor;
        executor = null;
        if (thread == null) {
            return false;
        }
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("{} did not end within 5 s of being stopped", name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    public boolean isRunning() {
        return executor != null;
    }

    /** When it was last started ({@link Instant#MIN} before). */
    public Instant startedAt() {
        return startedAt;
    }

    /** Runs {@code action} on the thread, after what was handed to it before; dropped while stopped. */
    public void execute(Runnable action) {
        ScheduledExecutorService thread = executor;
        if (thread == null) {
            return;
        }
        try {
            thread.execute(action);
        } catch (RejectedExecutionException e) {
            LOG.debug("{} stopped; an action was dropped", name, e);
        }
    }
}
