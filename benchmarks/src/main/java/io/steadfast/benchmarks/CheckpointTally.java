package io.steadfast.benchmarks;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for the checkpoint-service in benchmarks: counts, per checkpoint, the snapshots of this JVM's
 * tasks, their bytes, the latest moment one arrived (System.nanoTime, which is machine-wide on Linux, so the
 * two benchmark processes can be compared) and the longest task-thread pause. Snapshots are dropped.
 */
final class CheckpointTally implements CheckpointListener {

    /** What this JVM saw of one checkpoint. */
    record Seen(int tasks, long bytes, long lastNanos, long longestSyncNanos) {
        Seen plus(int size, long nanos, long syncNanos) {
            return new Seen(tasks + 1, bytes + size, Math.max(lastNanos, nanos), Math.max(longestSyncNanos, syncNanos));
        }
    }

    private final Map<Long, Seen> seen = new ConcurrentHashMap<>();

    @Override
    public void onSnapshot(TaskId task, int incarnation, long checkpointId, OperatorSnapshot snapshot,
                           long syncNanos) {
        long now = System.nanoTime();
        seen.merge(checkpointId, new Seen(1, snapshot.sizeInBytes(), now, syncNanos),
                (a, b) -> a.plus((int) b.bytes(), b.lastNanos(), b.longestSyncNanos()));
    }

    Map<Long, Seen> seen() {
        return Map.copyOf(seen);
    }

    void clear() {
        seen.clear();
    }
}
