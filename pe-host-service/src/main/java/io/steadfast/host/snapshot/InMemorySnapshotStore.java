package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link SnapshotStore} in a map, for tests and for several hosts in one JVM; lost when the process exits.
 * {@link #setAvailable(boolean) setAvailable(false)} makes every call fail as if the store were down.
 */
public final class InMemorySnapshotStore implements SnapshotStore {

    private final Map<String, byte[]> snapshots = new ConcurrentHashMap<>();
    private volatile boolean available = true;

    public void setAvailable(boolean available) {
        this.available = available;
    }

    /** Takes the snapshot of any incarnation. */
    @Override
    public void put(TaskId task, long checkpointId, TakenSnapshot snapshot) {
        requireAvailable();
        snapshots.put(key(task, checkpointId), snapshot.bytes().clone());
    }

    @Override
    public Optional<byte[]> get(TaskId task, long checkpointId) {
        requireAvailable();
        return Optional.ofNullable(snapshots.get(key(task, checkpointId))).map(byte[]::clone);
    }

    public int size() {
        return snapshots.size();
    }

    private void requireAvailable() {
        if (!available) {
            throw new SnapshotStoreException("in-memory snapshot store is switched off", null);
        }
    }

    private static String key(TaskId task, long checkpointId) {
        return checkpointId + "|" + task;
    }
}
