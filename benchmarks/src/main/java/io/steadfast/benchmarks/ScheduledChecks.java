package io.steadfast.benchmarks;

import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.runtime.concurrent.DaemonThreads;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Runs a benchmark's checks and actions on a scheduler thread of their own, so that their timing does not depend on
 * the caller's: a check repeated until a condition on the router holds, or an action run once at a set instant.
 */
final class ScheduledChecks {

    private ScheduledChecks() {
    }

    /**
     * Runs {@code action} at {@code at} (at once if past: e.g. the trigger was seen late, the fault comes late, and the
     * sample says by how much) on a scheduler, and returns what it returned.
     */
    static <T> T runAt(Instant at, String what, Callable<T> action) throws InterruptedException {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("bench-at"));
        try {
            return scheduler.schedule(action, Math.max(0, Duration.between(Instant.now(), at).toNanos()),
                    TimeUnit.NANOSECONDS).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not " + what + ": " + e.getCause().getMessage(), e.getCause());
        } finally {
            scheduler.shutdownNow();
        }
    }

    /**
     * Checks every {@code every} on a scheduler until the condition holds, up to {@code timeout}; a request the
     * loaded router does not answer in time is retried, not fatal.
     */
    static void await(Duration every, Duration timeout, BooleanSupplier condition, String what)
            throws InterruptedException {
        CompletableFuture<Void> held = new CompletableFuture<>();
        ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(
                new DaemonThreads("bench-await"));
        try {
            checks.scheduleWithFixedDelay(() -> {
                try {
                    if (holds(condition)) {
                        held.complete(null);
                    }
                } catch (RuntimeException e) {
                    held.completeExceptionally(e); // the condition can no longer hold
                }
            }, 0, every.toMillis(), TimeUnit.MILLISECONDS);
            held.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for " + what + " failed: " + e.getCause().getMessage(),
                    e.getCause());
        } finally {
            checks.shutdownNow();
        }
    }

    private static boolean holds(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RouterRequestException e) {
            System.out.println("  (router did not answer in time: " + e.getMessage() + "; retrying)");
            return false;
        }
    }
}
