package io.steadfast.runtime.host;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorDriver;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Operators of tasks that this host may be asked to recover in place, made and restored from their snapshots ahead
 * (while the failure of their host was being confirmed), for the recovery to take instead of doing it on its path.
 * One is taken once, and only by a recovery from the same checkpoint at the same plan epoch; one not taken within
 * {@link #KEPT_FOR} is dropped (a suspicion that ends with the host alive leaves nothing behind for long), as are the
 * oldest beyond {@link #MAX_KEPT}. Thread-safe.
 */
final class OperatorsRestoredAhead {

    static final Duration KEPT_FOR = Duration.ofSeconds(30);
    static final int MAX_KEPT = 256;

    private record Key(TaskId task, long checkpointId, int epoch) {
    }

    private record Restored(OperatorDriver driver, long sinceNanos) {
    }

    private final Map<Key, Restored> kept = new LinkedHashMap<>();
    private final LongSupplier nanoTime;

    OperatorsRestoredAhead(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    synchronized void put(TaskId task, long checkpointId, int epoch, OperatorDriver driver) {
        forgetExpired();
        kept.remove(new Key(task, checkpointId, epoch));
        kept.put(new Key(task, checkpointId, epoch), new Restored(driver, nanoTime.getAsLong()));
        Iterator<Key> oldest = kept.keySet().iterator();
        while (kept.size() > MAX_KEPT) {
            oldest.next();
            oldest.remove();
        }
    }

    /** Takes out the operator of {@code task} restored from {@code checkpointId} at {@code epoch}, if there is one. */
    synchronized Optional<OperatorDriver> take(TaskId task, long checkpointId, int epoch) {
        forgetExpired();
        return Optional.ofNullable(kept.remove(new Key(task, checkpointId, epoch))).map(Restored::driver);
    }

    /** Whether {@code task}'s operator restored from {@code checkpointId} waits to be taken. */
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
        kept.values().removeIf(restored -> now - restored.sinceNanos() > KEPT_FOR.toNanos());
    }
}
