package io.steadfast.router.recovery;

import io.steadfast.runtime.topology.TopologyId;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The recoveries this router ran: in memory, and written through to a {@link RecoveryStore} (loaded back when the
 * router restarts, ids continuing after the highest stored). Thread-safe.
 */
public final class RecoveryLog {

    private final Map<Long, Recovery> recoveries = new ConcurrentSkipListMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final RecoveryStore store;

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

    public long nextId() {
        return ids.incrementAndGet();
    }

    /** Adds a recovery or replaces the one with its id. */
    public void save(Recovery recovery) {
        store.save(recovery);
        recoveries.put(recovery.id(), recovery);
    }

    /** As {@link #save}, without waiting for the store to have it (see {@link RecoveryStore#saveWithoutWaiting}). */
    public void saveWithoutWaiting(Recovery recovery) {
        store.saveWithoutWaiting(recovery);
        recoveries.put(recovery.id(), recovery);
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
