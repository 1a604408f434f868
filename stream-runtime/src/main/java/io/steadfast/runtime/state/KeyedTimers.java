package io.steadfast.runtime.state;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The timers of one task in one time domain (event time, or processing time): (timestamp, key) pairs fired in
 * timestamp order, and within one timestamp in registration order, so that firing is deterministic and survives a
 * snapshot. Task thread only.
 */
public final class KeyedTimers {

    /** A timer due for firing. */
    public record Timer(long timestamp, String key) {
    }

    private final TreeMap<Long, LinkedHashSet<String>> byTime = new TreeMap<>();
    private int size;

    public void register(long timestamp, String key) {
        if (byTime.computeIfAbsent(timestamp, t -> new LinkedHashSet<>()).add(key)) {
            size++;
        }
    }

    public void delete(long timestamp, String key) {
        Set<String> keys = byTime.get(timestamp);
        if (keys != null && keys.remove(key)) {
            size--;
            if (keys.isEmpty()) {
                byTime.remove(timestamp);
            }
        }
    }

    /** Removes and returns the timers with timestamps at or before {@code watermark} (or clock reading), in firing order. */
    public List<Timer> pollDue(long watermark) {
        List<Timer> due = new ArrayList<>();
        while (!byTime.isEmpty() && byTime.firstKey() <= watermark) {
            Map.Entry<Long, LinkedHashSet<String>> first = byTime.pollFirstEntry();
            for (String key : first.getValue()) {
                due.add(new Timer(first.getKey(), key));
            }
            size -= first.getValue().size();
        }
        return due;
    }

    /** The earliest timestamp of a timer, or {@link Long#MAX_VALUE} when there is none. */
    public long next() {
        return byTime.isEmpty() ? Long.MAX_VALUE : byTime.firstKey();
    }

    public int size() {
        return size;
    }

    /** All timers in firing order, for snapshots. */
    public Iterator<Timer> iterator() {
        List<Timer> all = new ArrayList<>(size);
        byTime.forEach((timestamp, keys) -> keys.forEach(key -> all.add(new Timer(timestamp, key))));
        return all.iterator();
    }

    /** All timers in firing order, as a copy. */
    public List<Timer> list() {
        List<Timer> all = new ArrayList<>(size);
        iterator().forEachRemaining(all::add);
        return all;
    }

    public void clear() {
        byTime.clear();
        size = 0;
    }
}
