package io.steadfast.router.failure;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link HeartbeatFailureDetector#sweep()} every quarter of the heartbeat timeout on its own thread,
 * {@code steadfast-router-failure-detector}, so that hosts going DEAD are logged even when nobody asks.
 */
public final class HostLivenessMonitor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HostLivenessMonitor.class);

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "steadfast-router-failure-detector");
        thread.setDaemon(true);
        return thread;
    });

    public HostLivenessMonitor(HeartbeatFailureDetector detector) {
        long period = Math.max(10, detector.timeout().dividedBy(4).toMillis());
        executor.scheduleWithFixedDelay(() -> {
            try {
                detector.sweep();
            } catch (RuntimeException e) {
                LOG.error("Failure detector sweep failed; retrying", e);
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
    }
}
