package io.steadfast.runtime.recovery;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What this host made ahead for tasks it may be asked to recover in place (while the failure of their host was being
 * confirmed), for the recovery to take instead of making it on its path: operators restored from their snapshots,
 * tasks prepared whole. One is taken once, and only by a recovery from the same checkpoint at the same plan epoch; one
 * not taken within {@link #KEPT_FOR} is dropped (a suspicion that ends with the host alive leaves nothing behind for
 * long), as are the oldest beyond the bound. Thread-safe.
 *
 * @param <T> what is held for a task
 */
final class HeldAhead<T> {

    static final Duration KEPT_FOR = Duration.ofSeconds(30);

    private record Key(TaskId task, long checkpointId, int epoch) {
    }

    private record Held<T>(T value, long sinceNanos) {
    }

    private final Map<Key, Held<T>> kept = new LinkedHashMap<>();
    private final LongSupplier nanoTime;
    private final int maxKept;

    /** @param maxKept the most held at once: beyond it the oldest are dropped */
    HeldAhead(LongSupplier nanoTime, int maxKept) {
        if (maxKept < 1) {
            throw new IllegalArgumentException("maxKept must be >= 1, was " + maxKept);
        }
        this.nanoTime = nanoTime;
        this.maxKept = maxKept;
    }

    synchronized void put(TaskId task, long checkpointId, int epoch, T value) {
        forgetExpired();
        kept.remove(new Key(task, checkpointId, epoch));
        kept.put(new Key(task, checkpointId, epoch), new Held<>(value, nanoTime.getAsLong()));
        Iterator<Key> oldest = kept.keySet().iterator();
        while (kept.size() > maxKept) {
            oldest.next();
            oldest.remove();
        }
    }

    /** Takes out what is held for {@code task} from {@code checkpointId} at {@code epoch}, if anything. */
    synchronized Optional<T> take(TaskId task, long checkpointId, int epoch) {
        forgetExpired();
        return Optional.ofNullable(kept.remove(new Key(task, checkpointId, epoch))).map(Held::value);
    }

    /** Whether something made from {@code checkpointId} waits to be taken for {@code task}. */
    synchronized boolean holds(TaskId task, long checkpointId) {
        forgetExpired();
        return kept.keySet().stream().anyMatch(key -> key.task().equals(task) && key.checkpointId() == checkpointId);
    }

    synchronized void forget(TopologyId topology) {
        kept.keySet().removeIf(key -> key.task().topology().equals(topology));
    }

    synchronized int size() {
        forgetExpired();
        return kept.size();
    }

    private void forgetExpired() {
        long now = nanoTime.getAsLong();
        kept.values().removeIf(held -> now - held.sinceNanos() > KEPT_FOR.toNanos());
    }
}
