package io.steadfast.router.recovery;

import io.steadfast.runtime.topology.TopologyId;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** The recoveries this router ran, in memory (lost on restart). Thread-safe. */
public final class RecoveryLog {

    private final Map<Long, Recovery> recoveries = new ConcurrentSkipListMap<>();
    private final AtomicLong ids = new AtomicLong();

    public long nextId() {
        return ids.incrementAndGet();
    }

    /** Adds a recovery or replaces the one with its id. */
    public void save(Recovery recovery) {
        recoveries.put(recovery.id(), recovery);
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
}
