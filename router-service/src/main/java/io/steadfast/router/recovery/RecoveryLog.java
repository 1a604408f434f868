package io.steadfast.router.recovery;

import io.steadfast.runtime.topology.TopologyId;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The recoveries this router ran: in memory, and written through to a {@link RecoveryStore} (loaded back when the
 * router restarts, ids continuing after the highest stored). Thread-safe.
 */
public final class RecoveryLog {

    private final Map<Long, Recovery> recoveries = new ConcurrentSkipListMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final RecoveryStore store;
    private final List<Transitions> listeners = new CopyOnWriteArrayList<>();

    /**
     * Told of every recovery this router saves, with the copy it replaces: where a recovery's steps and outcome are
     * recorded. Called on the saving thread: implementations only count and return at once.
     */
    @FunctionalInterface
    public interface Transitions {

        /** @param previous the copy with the same id saved before, or null for a new recovery */
        void saved(@Nullable Recovery previous, Recovery saved);
    }

    /** Kept in memory only. */
    public RecoveryLog() {
        this(RecoveryStore.NONE);
    }

    public RecoveryLog(RecoveryStore store) {
        this.store = store;
        restore(store.loadAll());
    }

    /**
     * Takes in recoveries read back from the store (for a store that loads them after the log was made): each one
     * whose id the log does not have yet; ids continue after the highest.
     */
    public void restore(Collection<Recovery> stored) {
        for (Recovery recovery : stored) {
            recoveries.putIfAbsent(recovery.id(), recovery);
            ids.accumulateAndGet(recovery.id(), Math::max);
        }
    }

    /**
     * Also tells {@code listener} of every recovery saved from now on (not those {@link #restore restored} from the
     * store).
     */
    public void onSaved(Transitions listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public long nextId() {
        return ids.incrementAndGet();
    }

    /** Adds a recovery or replaces the one with its id. */
    public void save(Recovery recovery) {
        store.save(recovery);
        saved(recoveries.put(recovery.id(), recovery), recovery);
    }

    /** As {@link #save}, without waiting for the store to have it (see {@link RecoveryStore#saveWithoutWaiting}). */
    public void saveWithoutWaiting(Recovery recovery) {
        store.saveWithoutWaiting(recovery);
        saved(recoveries.put(recovery.id(), recovery), recovery);
    }

    private void saved(@Nullable Recovery previous, Recovery recovery) {
        listeners.forEach(listener -> listener.saved(previous, recovery));
    }

    /** The recovery with this id, as last saved. */
    public Optional<Recovery> find(long id) {
        return Optional.ofNullable(recoveries.get(id));
    }

    /** Every recovery, newest first. */
    public List<Recovery> all() {
        return recoveries.values().stream().sorted(Comparator.comparingLong(Recovery::id).reversed()).toList();
    }

    public long countOf(TopologyId topology) {
        return recoveries.values().stream().filter(r -> r.topology().equals(topology)).count();
    }

    public List<Recovery> recovering() {
        return recoveries.values().stream().filter(r -> r.status() == RecoveryStatus.RECOVERING).toList();
    }

    /** The latest recovery of {@code topology}: the one with the highest id. */
    public Optional<Recovery> latestOf(TopologyId topology) {
        return recoveries.values().stream().filter(r -> r.topology().equals(topology))
                .max(Comparator.comparingLong(Recovery::id));
    }

    /**
     * Marks ABANDONED (SUPERSEDED) each earlier recovery of the successor's topology still RECOVERING: it can never
     * catch up now, since the successor redeploys the topology.
     */
    void supersede(Recovery successor) {
        for (Recovery earlier : recovering()) {
            if (earlier.topology().equals(successor.topology())) {
                save(earlier.abandoned("SUPERSEDED", "Recovery " + successor.id() + " of topology '"
                        + successor.topology() + "' took over before this one caught up (host "
                        + successor.failedHost() + " failed); was: " + earlier.message()));
            }
        }
    }
}
