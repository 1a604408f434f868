package io.steadfast.router.store;

import java.time.Clock;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Whether a {@link WriteBehind}'s store answers and whether its writes go through, as the latest calls found, with
 * the latest failure: what {@link WriteBehind.Status} reports. Thread-safe.
 */
final class StoreReachability {

    private final Clock clock;
    private volatile boolean reachable = true;
    private volatile boolean failing;
    private volatile @Nullable String lastError;
    private volatile @Nullable Instant unreachableSince;

    StoreReachability(Clock clock) {
        this.clock = clock;
    }

    boolean reachable() {
        return reachable;
    }

    @Nullable String lastError() {
        return lastError;
    }

    void reached() {
        reachable = true;
        unreachableSince = null;
    }

    void unreachable(RuntimeException e) {
        if (reachable || unreachableSince == null) {
            unreachableSince = clock.instant();
        }
        reachable = false;
        lastError = describe(e);
    }

    /** A write failed (store unreachable or record refused); it is retried. */
    void writeFailed() {
        failing = true;
    }

    /**
     * The store refused a record, not for an outage.
     *
     * @return whether this failure differs from the latest one (worth logging)
     */
    boolean refused(String error) {
        boolean changed = !error.equals(lastError);
        lastError = error;
        return changed;
    }

    /** Everything pending was written: the latest failure is over, unless the store is still unreachable. */
    void allWritten() {
        failing = false;
        if (reachable) {
            lastError = null;
        }
    }

    void clearError() {
        lastError = null;
    }

    WriteBehind.Status status(String records, boolean loaded, int pendingWrites) {
        return new WriteBehind.Status(records, loaded, reachable, failing, pendingWrites, lastError, unreachableSince);
    }

    static String describe(RuntimeException e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
