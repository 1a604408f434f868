package io.steadfast.router.recovery;

import io.steadfast.router.store.MongoOutage;
import io.steadfast.router.store.RecordsNotLoadedException;
import io.steadfast.router.store.WriteBehind;
import java.time.Clock;
import java.util.function.BooleanSupplier;
import java.util.List;
import java.util.function.Consumer;

/**
 * Recoveries written through to a {@link MongoRecoveryStore} behind a {@link WriteBehind}: a save waits at most
 * the write timeout while MongoDB answers and not at all while it is known to be down; a recovery MongoDB did not
 * take is kept (its latest state) and retried in the background until it does. The {@link RecoveryLog} in front
 * keeps them in memory for reads.
 *
 * <p>The stored recoveries come through {@link #load} (now, or in the background while MongoDB cannot be
 * reached), not {@link #loadAll}; until they are loaded, saves are refused with {@link RecordsNotLoadedException},
 * since a new recovery's id could be that of a stored one. Thread-safe.
 */
public final class WriteBehindRecoveryStore implements RecoveryStore, AutoCloseable {

    private final WriteBehind<Long, Recovery> writes;

    public WriteBehindRecoveryStore(MongoRecoveryStore mongo, String storeName, WriteBehind.Settings settings,
                                    Clock clock) {
        this(mongo, storeName, settings, clock, () -> true);
    }

    /** @param leading whether this router leads: a deposed one writes nothing */
    public WriteBehindRecoveryStore(MongoRecoveryStore mongo, String storeName, WriteBehind.Settings settings,
                                    Clock clock, BooleanSupplier leading) {
        this.writes = new WriteBehind<>("recoveries", storeName, WriteBehind.Store.<Long, Recovery>of(mongo::loadAll,
                (id, recovery) -> mongo.save(recovery), id -> {
                    throw new UnsupportedOperationException("recoveries are never removed");
                }, mongo::ping, MongoOutage::isOutage).writingOnlyWhile(leading, "this router no longer leads"),
                settings, clock);
    }

    /**
     * Loads the stored recoveries into {@code log} ({@link RecoveryLog#restore}), now or, if MongoDB cannot be
     * reached, in the background; saves are accepted once it is done.
     *
     * @return whether they were loaded now
     */
    public boolean load(Consumer<List<Recovery>> log) {
        return writes.load(log);
    }

    /** Nothing: the stored recoveries are handed over by {@link #load}. */
    @Override
    public List<Recovery> loadAll() {
        return List.of();
    }

    /** @throws RecordsNotLoadedException if the stored recoveries are not loaded yet */
    @Override
    public void save(Recovery recovery) {
        writes.awaitWritten(writes.put(recovery.id(), recovery));
    }

    /** @throws RecordsNotLoadedException if the stored recoveries are not loaded yet */
    @Override
    public void saveWithoutWaiting(Recovery recovery) {
        writes.put(recovery.id(), recovery);
    }

    /** Where the writes to MongoDB stand: loaded, reachable, how many pending. */
    public WriteBehind.Status status() {
        return writes.status();
    }

    /** Runs {@code action} once the recoveries are loaded (now if they are). */
    public void whenLoaded(Runnable action) {
        writes.whenLoaded(action);
    }

    /** Stops writing; recoveries MongoDB has not taken by then are logged and lost. */
    @Override
    public void close() {
        writes.close();
    }
}
