package io.steadfast.router.leadership;

import java.util.Optional;

/**
 * Where the router lease lives. Every write is conditional on the version read, so two contenders can never both
 * believe they wrote the lease. Implementations: {@link MongoLeaseStore}.
 */
public interface LeaseStore extends AutoCloseable {

    /** The lease as stored now, or empty if no router ever took it. */
    Optional<StoredLease> read();

    /**
     * Writes {@code next} if the stored lease is still {@code expected} (empty: there is none).
     *
     * @return whether it was written; false if another router wrote the lease since {@code expected} was read
     */
    boolean replace(Optional<StoredLease> expected, LeaseRecord next);

    /** Where the lease is, for logs and errors. */
    String describe();

    @Override
    default void close() {
    }
}
