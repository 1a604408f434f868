package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where this host keeps its tasks' snapshots: the checkpoint-service ({@link HttpSnapshotStore}), or memory in
 * tests ({@link InMemorySnapshotStore}). Implementations are thread-safe; every method throws
 * {@link SnapshotStoreException} when the store cannot be reached or refuses the call.
 */
public interface SnapshotStore {

    /**
     * Stores the snapshot of one task for one checkpoint, replacing any earlier one.
     *
     * @throws CheckpointClosedException if the checkpoint takes no more snapshots, or none of the copy of the task that
     *                                   took this one ({@link SupersededSnapshotException})
     */
    void put(TaskId task, long checkpointId, TakenSnapshot snapshot);

    /**
     * Stores the snapshots of several tasks of one topology for one checkpoint, replacing any earlier ones; if it
     * throws, some may be stored. This default stores one after the other.
     */
    default void putAll(long checkpointId, Map<TaskId, TakenSnapshot> snapshots) {
        snapshots.forEach((task, snapshot) -> put(task, checkpointId, snapshot));
    }

    /** The snapshot of one task for one checkpoint; empty if the store has none. */
    Optional<byte[]> get(TaskId task, long checkpointId);

    /**
     * The snapshots of several tasks of one topology for one checkpoint, by task, in the order given; a task the
     * store has none of is left out. This default asks for one after the other.
     */
    default Map<TaskId, byte[]> getAll(List<TaskId> tasks, long checkpointId) {
        Map<TaskId, byte[]> snapshots = new LinkedHashMap<>();
        tasks.forEach(task -> get(task, checkpointId).ifPresent(bytes -> snapshots.put(task, bytes)));
        return snapshots;
    }
}
