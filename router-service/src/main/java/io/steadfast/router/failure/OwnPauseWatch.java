package io.steadfast.router.failure;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices the pauses of this router's own process: a SIGSTOP, a long garbage-collection pause, a paused or migrated
 * virtual machine. While the router does not run, every host's heartbeats wait in its sockets; measured by the clock
 * alone, each host then looks silent for as long as the router was stopped, and a detector that judged by that
 * silence would declare every host DEAD at once when the router resumes, before it reads the heartbeats that were
 * waiting. So silence counts only from the moment the router ran again ({@link #resumedAt()}).
 *
 * <p>A thread of its own ({@code steadfast-router-pause-watch}) ticks every {@code tick}; a gap between ticks longer
 * than {@code threshold} (by the monotonic clock) is a pause. A reader may run before that thread after a pause, so
 * {@link #resumedAt()} checks the gap since the last tick as well. A thread starved of CPU for longer than the
 * threshold counts as paused too: that only delays the router's judgement by one heartbeat timeout, never makes it
 * act sooner, so the lease argument (docs/design.md, "Fencing") holds. Thread-safe.
 */
public final class OwnPauseWatch implements OwnPauses, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OwnPauseWatch.class);

    private final Clock clock;
    private final LongSupplier nanoTime;
    private final long thresholdNanos;
    private final AtomicReference<Tick> last;
    private final ScheduledExecutorService thread;

    private record Tick(long nanos, Instant resumedAt) {
    }

    private OwnPauseWatch(Clock clock, LongSupplier nanoTime, Duration threshold,
                          ScheduledExecutorService thread) {
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.thresholdNanos = threshold.toNanos();
        this.last = new AtomicReference<>(new Tick(nanoTime.getAsLong(), Instant.MIN));
        this.thread = thread;
    }

    /**
     * A watch whose own thread ticks every {@code threshold / 8}.
     *
     * @param threshold the shortest gap taken for a pause: short enough that a pause just below it, added to the
     *                  heartbeat interval, stays below the heartbeat timeout (half the timeout does)
     */
    public static OwnPauseWatch started(Clock clock, Duration threshold) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread ticker = new Thread(runnable, "steadfast-router-pause-watch");
            ticker.setDaemon(true);
            return ticker;
        });
        OwnPauseWatch watch = new OwnPauseWatch(clock, System::nanoTime, threshold, thread);
        long tick = Math.max(1, threshold.toMillis() / 8);
        thread.scheduleWithFixedDelay(watch::tick, tick, tick, TimeUnit.MILLISECONDS);
        return watch;
    }

    /** A watch ticked only by its caller, with the monotonic clock given: for tests. */
    static OwnPauseWatch tickedByHand(Clock clock, LongSupplier nanoTime, Duration threshold) {
        return new OwnPauseWatch(clock, nanoTime, threshold, null);
    }

    /** Records that the router runs now. */
    void tick() {
        advance(last.get());
    }

    @Override
    public Instant resumedAt() {
        Tick before = last.get();
        if (nanoTime.getAsLong() - before.nanos() <= thresholdNanos) {
            return before.resumedAt();
        }
        // Not ticked since the pause yet: this read is the first thing the router does after it.
        return advance(before).resumedAt();
    }

    /** The tick after {@code before}, recorded unless another thread recorded one meanwhile; logs a pause. */
    private Tick advance(Tick before) {
        long nanos = nanoTime.getAsLong();
        if (nanos - before.nanos() <= thresholdNanos) {
            last.compareAndSet(before, new Tick(nanos, before.resumedAt()));
            return last.get();
        }
        Tick resumed = new Tick(nanos, clock.instant());
        if (!last.compareAndSet(before, resumed)) {
            return last.get();
        }
        LOG.warn("This router did not run for {} ms (stopped, paused by the garbage collector or its machine, or"
                + " starved of CPU); hosts are judged by their silence since {} only",
                Duration.ofNanos(nanos - before.nanos()).toMillis(), resumed.resumedAt());
        return resumed;
    }

    @Override
    public void close() throws InterruptedException {
        if (thread != null) {
            thread.shutdownNow();
            thread.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
