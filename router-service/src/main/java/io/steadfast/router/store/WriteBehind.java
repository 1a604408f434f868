package io.steadfast.router.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the records of one kind (topologies, recoveries) to a {@link Store} that may be down, for a caller that
 * keeps them in memory as the source of truth. What the store has not taken yet is kept per record id, the latest
 * state only: a newer state of a record replaces its pending one, so repeated updates coalesce, and a record's
 * states reach the store in the order they were made. A write that fails stays pending and is retried every
 * {@code retryInterval} until the store takes it; the store then counts as unreachable (or, if the failure was
 * not an outage, as refusing that record, which is retried all the same). While nothing is pending the store is
 * pinged every {@code probeInterval}, so its reachability is current without traffic.
 *
 * <p>Loading works the same way: {@link #load} tries once on the caller's thread and, if the store cannot be
 * reached, again every {@code retryInterval} until it can. Writes are refused ({@link RecordsNotLoadedException})
 * until the records are loaded: the caller's memory would otherwise disagree with the store in ways a later load
 * cannot settle (the same id used twice).
 *
 * <p>Threading: {@link #put}, {@link #delete} and {@link #awaitWritten} may be called from any thread. A caller
 * that updates the same record from several threads calls {@code put}/{@code delete} in the order of its own
 * in-memory updates (under the lock that orders them), and waits outside that lock. Everything that touches the
 * store runs on one thread ({@link StoreThread}), started by the constructor and stopped by {@link #close}; what the
 * calls found about the store is kept by {@link StoreReachability}.
 *
 * @param <K> the record id
 * @param <V> the record
 */
public final class WriteBehind<K, V> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WriteBehind.class);

    private final String records;
    private final String storeName;
    private final Store<K, V> store;
    private final Settings settings;
    private final Clock clock;
    private final StoreThread thread;
    private final StoreReachability health;
    private final Object lock = new Object();
    /** Not yet taken by the store, in the order the records first became pending. Guarded by {@link #lock}. */
    private final LinkedHashMap<K, Pending<V>> pending = new LinkedHashMap<>();
    /** A flush is queued or running, or a retry is scheduled; true whenever something is pending. Guarded by lock. */
    private boolean flushing;
    /** The record being written, taken out of {@link #pending} meanwhile. Guarded by {@link #lock}. */
    private @Nullable K inFlight;
    private final List<Runnable> loadedListeners = new ArrayList<>();
    private volatile boolean loaded;
    /** Completed (and replaced) when a write fails, to release callers waiting in {@link #awaitWritten}. */
    private volatile CompletableFuture<Void> nextFailure = new CompletableFuture<>();

    /**
     * @param records what the records are, plural, for logs, health and the thread name (e.g. "topologies")
     * @param storeName where they are kept, for people (e.g. "MongoDB database 'steadfast-router'")
     */
    public WriteBehind(String records, String storeName, Store<K, V> store, Settings settings, Clock clock) {
        this.records = records;
        this.storeName = storeName;
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.health = new StoreReachability(clock);
        this.thread = new StoreThread(records);
        thread.scheduleWithFixedDelay(this::probe, settings.probeInterval());
    }

    /**
     * Reads every record from the store and hands them to {@code into}, then counts as loaded. Tried now, on the
     * caller's thread; if that fails, logged and tried again every retry interval on the store thread until it
     * works. Call once.
     *
     * @return whether the records were loaded now
     */
    public boolean load(Consumer<List<V>> into) {
        if (tryLoad(into, clock.instant(), 1)) {
            return true;
        }
        LOG.warn("Could not load the router's {} from {}: {}. The router goes on without them and tries again every"
                + " {}; until they are loaded its topology and recovery API answers 503 and no stored topology is"
                + " checkpointed or recovered. Check that the store is up (spring.mongodb.uri) and see"
                + " /actuator/health (component routerStore)", records, storeName, health.lastError(),
                settings.retryInterval());
        scheduleLoad(into, clock.instant(), 2);
        return false;
    }

    private boolean tryLoad(Consumer<List<V>> into, Instant since, int attempt) {
        List<V> loadedRecords;
        try {
            loadedRecords = store.loadAll();
        } catch (RuntimeException e) {
            health.unreachable(e);
            return false;
        }
        health.reached();
        into.accept(loadedRecords);
        List<Runnable> listeners;
        synchronized (lock) {
            loaded = true;
            listeners = List.copyOf(loadedListeners);
            loadedListeners.clear();
        }
        if (attempt > 1) {
            LOG.info("Loaded the router's {} from {} after {} attempts ({} ms): {} records", records, storeName,
                    attempt, Duration.between(since, clock.instant()).toMillis(), loadedRecords.size());
        }
        listeners.forEach(StoreThread::runGuarded);
        return true;
    }

    private void scheduleLoad(Consumer<List<V>> into, Instant since, int attempt) {
        thread.schedule(() -> {
            if (!tryLoad(into, since, attempt)) {
                LOG.debug("Loading the router's {} failed again (attempt {}): {}", records, attempt,
                        health.lastError());
                scheduleLoad(into, since, attempt + 1);
            }
        }, settings.retryInterval());
    }

    /** Runs {@code action} once the records are loaded: now, on this thread, if they are already. */
    public void whenLoaded(Runnable action) {
        synchronized (lock) {
            if (!loaded) {
                loadedListeners.add(action);
                return;
            }
        }
        action.run();
    }

    public boolean loaded() {
        return loaded;
    }

    /** @throws RecordsNotLoadedException if the records are not loaded yet */
    public void requireLoaded() {
        if (!loaded) {
            throw new RecordsNotLoadedException(records, storeName, settings.retryInterval(), health.lastError());
        }
    }

    /**
     * Queues the record's new state for the store. Returns at once; see {@link #awaitWritten} to wait.
     *
     * @return completes when the store has taken this state or a later one of the record
     * @throws RecordsNotLoadedException if the records are not loaded yet
     */
    public CompletableFuture<Void> put(K id, V value) {
        return enqueue(id, value);
    }

    /** Queues the removal of a record; like {@link #put}. */
    public CompletableFuture<Void> delete(K id) {
        return enqueue(id, null);
    }

    private CompletableFuture<Void> enqueue(K id, @Nullable V value) {
        requireLoaded();
        synchronized (lock) {
            Pending<V> earlier = pending.get(id);
            CompletableFuture<Void> written = earlier == null ? new CompletableFuture<>() : earlier.written();
            pending.put(id, new Pending<>(value, written));
            if (!flushing) {
                flushing = true;
                thread.execute(this::flush);
            }
            return written;
        }
    }

    /**
     * Waits up to the write timeout for a queued write to reach the store, so that writes are written through
     * while the store answers; returns at once if it is known to be unreachable, and as soon as a write fails. The
     * write stays queued either way.
     *
     * @return whether the store has taken it
     */
    public boolean awaitWritten(CompletableFuture<Void> write) {
        CompletableFuture<Void> failure = nextFailure;
        if (write.isDone() || !health.reachable()) {
            return write.isDone();
        }
        try {
            CompletableFuture.anyOf(write, failure).get(settings.writeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            LOG.debug("A write of {} is still pending after {}", records, settings.writeTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return write.isDone();
    }

    /** Writes what is pending, oldest record first, until nothing is or a write fails (then retries later). */
    private void flush() {
        while (true) {
            K id;
            Pending<V> next;
            synchronized (lock) {
                Iterator<Map.Entry<K, Pending<V>>> first = pending.entrySet().iterator();
                if (!first.hasNext()) {
                    flushing = false;
                    health.allWritten();
                    return;
                }
                Map.Entry<K, Pending<V>> entry = first.next();
                id = entry.getKey();
                next = entry.getValue();
                first.remove();
                inFlight = id;
            }
            try {
                if (next.value() == null) {
                    store.delete(id);
                } else {
                    store.write(id, next.value());
                }
            } catch (RuntimeException e) {
                keepFailed(id, next, e);
                thread.schedule(this::flush, settings.retryInterval());
                return;
            }
            if (!health.reachable()) {
                LOG.info("{} is reachable again: writing the {} {} changed meanwhile", storeName,
                        pendingWrites(), records);
            }
            health.reached();
            synchronized (lock) {
                inFlight = null;
            }
            next.written().complete(null);
        }
    }

    /**
     * Puts a failed write back (at the end, so that a record the store refuses does not hold up the others),
     * unless a newer state of the record was queued meanwhile: that one is written instead. Then releases the
     * callers waiting for a write.
     */
    private void keepFailed(K id, Pending<V> failed, RuntimeException e) {
        synchronized (lock) {
            Pending<V> newer = pending.get(id);
            if (newer == null) {
                pending.put(id, failed);
            } else {
                newer.written().thenRun(() -> failed.written().complete(null));
            }
            inFlight = null;
            health.writeFailed();
        }
        if (store.isOutage(e)) {
            boolean wasReachable = health.reachable();
            health.unreachable(e);
            if (wasReachable) {
                LOG.warn("{} is unreachable ({}): {} writes of {} kept in memory and retried every {}; reads go on"
                        + " from memory", storeName, health.lastError(), pendingWrites(), records,
                        settings.retryInterval());
            }
        } else if (health.refused("the store refused " + records + " record " + id + ": "
                + StoreReachability.describe(e))) {
            LOG.error("{} refused to store {} record {}; kept and retried every {}", storeName, records, id,
                    settings.retryInterval(), e);
        }
        CompletableFuture<Void> failure = nextFailure;
        nextFailure = new CompletableFuture<>();
        failure.complete(null);
    }

    private void probe() {
        synchronized (lock) {
            if (flushing || !loaded) {
                return;
            }
        }
        try {
            store.ping();
            if (!health.reachable()) {
                LOG.info("{} answers again; nothing of the router's {} was pending", storeName, records);
            }
            health.reached();
            synchronized (lock) {
                if (pending.isEmpty()) {
                    health.clearError();
                }
            }
        } catch (RuntimeException e) {
            if (health.reachable()) {
                LOG.warn("{} does not answer a ping ({}); the router's {} are kept in memory meanwhile", storeName,
                        StoreReachability.describe(e), records);
            }
            health.unreachable(e);
        }
    }

    /** Records whose latest state the store has not taken yet, the one being written included. */
    public int pendingWrites() {
        synchronized (lock) {
            return pending.size() + (inFlight == null || pending.containsKey(inFlight) ? 0 : 1);
        }
    }

    public Status status() {
        return health.status(records, loaded, pendingWrites());
    }

    /**
     * Stops the store thread after the writes already queued for it (not retries) are done, waiting at most the
     * write timeout plus the retry interval; logs the writes that never reached the store.
     */
    @Override
    public void close() {
        thread.close(settings.writeTimeout().plus(settings.retryInterval()));
        List<K> lost;
        synchronized (lock) {
            lost = List.copyOf(pending.keySet());
        }
        if (!lost.isEmpty()) {
            LOG.warn("Closing with {} changes of {} that {} never took ({}): ids {}. The store keeps their earlier"
                    + " state; a router started on it will see that", lost.size(), records, storeName,
                    health.lastError(), lost);
        }
    }

    /** A record's latest state not yet in the store: the value, or null for a removal. */
    private record Pending<V>(@Nullable V value, CompletableFuture<Void> written) {
    }

    /**
     * Where the records are kept. Calls block (within the store client's timeouts) and throw when they fail.
     *
     * @param <K> the record id
     * @param <V> the record
     */
    public interface Store<K, V> {

        /** Every stored record. */
        List<V> loadAll();

        /** Stores a record, replacing the one with its id (an upsert: retrying after a lost answer is harmless). */
        void write(K id, V value);

        /** Removes a record; no error if there is none. */
        void delete(K id);

        /** Returns if the store answers, throws otherwise. */
        void ping();

        /** Whether a call failed because the store is unavailable, rather than because it refused the request. */
        boolean isOutage(RuntimeException failure);

        /**
         * This store, whose writes and deletes are refused ({@link IllegalStateException}) unless {@code writable}:
         * a router that no longer leads must not overwrite what its successor stored.
         */
        default Store<K, V> writingOnlyWhile(BooleanSupplier writable, String why) {
            Store<K, V> store = this;
            Runnable check = () -> {
                if (!writable.getAsBoolean()) {
                    throw new IllegalStateException("Not writing the router's records: " + why);
                }
            };
            return of(store::loadAll, (id, value) -> {
                check.run();
                store.write(id, value);
            }, id -> {
                check.run();
                store.delete(id);
            }, store::ping, store::isOutage);
        }

        static <K, V> Store<K, V> of(Supplier<List<V>> loadAll, BiConsumer<K, V> write, Consumer<K> delete,
                                     Runnable ping, Predicate<RuntimeException> isOutage) {
            return new Store<>() {
                @Override
                public List<V> loadAll() {
                    return loadAll.get();
                }

                @Override
                public void write(K id, V value) {
                    write.accept(id, value);
                }

                @Override
                public void delete(K id) {
                    delete.accept(id);
                }

                @Override
                public void ping() {
                    ping.run();
                }

                @Override
                public boolean isOutage(RuntimeException failure) {
                    return isOutage.test(failure);
                }
            };
        }
    }

    /**
     * Timing of a write-behind queue.
     *
     * @param writeTimeout how long a caller waits for its write to reach a reachable store before leaving it queued
     * @param retryInterval how often pending writes (and a failed load) are tried again
     * @param probeInterval how often the store is pinged while nothing is pending
     */
    public record Settings(Duration writeTimeout, Duration retryInterval, Duration probeInterval) {

        public Settings {
            for (Duration d : List.of(writeTimeout, retryInterval, probeInterval)) {
                if (d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("write-behind timings must be positive, were " + writeTimeout
                            + ", " + retryInterval + ", " + probeInterval);
                }
            }
        }
    }

    /**
     * Where a queue stands.
     *
     * @param records what the records are (e.g. "topologies")
     * @param loaded whether they were loaded from the store
     * @param reachable whether the store answered the latest call
     * @param failing whether the latest write failed (store unreachable, or a record refused)
     * @param pendingWrites records whose latest state the store has not taken yet
     * @param lastError the latest failure, cleared once everything pending is written; or null
     * @param unreachableSince when the store stopped answering, or null while it answers
     */
    public record Status(String records, boolean loaded, boolean reachable, boolean failing, int pendingWrites,
                         @Nullable String lastError, @Nullable Instant unreachableSince) {

        /** Loaded, reachable and taking writes. */
        public boolean healthy() {
            return loaded && reachable && !failing;
        }
    }
}
