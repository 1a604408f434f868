package io.steadfast.host.warmup;

import io.steadfast.host.snapshot.SnapshotStore;
import io.steadfast.host.snapshot.TakenSnapshot;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.topology.TopologyId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the snapshots of the host's in-process warm-up topologies here, instead of uploading them (the
 * checkpoint-service knows nothing of those topologies and would refuse them), so that the warm-up can recover them
 * in place; every other snapshot goes on to the uploader. Reads go the same way ({@link #before}): the warm-up's
 * recoveries take the path of a real one, fetching their snapshots as bytes, and every other read goes to the
 * checkpoint-service. Thread-safe.
 */
public final class WarmUpSnapshots implements CheckpointListener {

    private final CheckpointListener uploader;
    private final Map<TopologyId, Map<TaskId, OperatorSnapshot>> kept = new ConcurrentHashMap<>();

    public WarmUpSnapshots(CheckpointListener uploader) {
        this.uploader = uploader;
    }

    /** Starts keeping the snapshots of {@code topology}, forgetting any kept before. */
    void keep(TopologyId topology) {
        kept.put(topology, new ConcurrentHashMap<>());
    }

    /** The snapshots kept of {@code topology} so far, by task (the latest checkpoint's of each). */
    Map<TaskId, OperatorSnapshot> of(TopologyId topology) {
        return Map.copyOf(kept.getOrDefault(topology, Map.of()));
    }

    /** Stops keeping the snapshots of {@code topology}. */
    void drop(TopologyId topology) {
        kept.remove(topology);
    }

    @Override
    public void onSnapshot(TaskId task, int incarnation, long checkpointId, OperatorSnapshot snapshot,
                           long syncNanos) {
        Map<TaskId, OperatorSnapshot> snapshots = kept.get(task.topology());
        if (snapshots != null) {
            snapshots.put(task, snapshot);
        } else {
            uploader.onSnapshot(task, incarnation, checkpointId, snapshot, syncNanos);
        }
    }

    /**
     * The snapshot store a host restores from: the snapshots kept here, encoded as the checkpoint-service would hand
     * them out, for the warm-up topologies; {@code store} for every other topology, and for every write.
     */
    public SnapshotStore before(SnapshotStore store) {
        return new KeptFirst(store);
    }

    private final class KeptFirst implements SnapshotStore {

        private final SnapshotStore store;

        KeptFirst(SnapshotStore store) {
            this.store = store;
        }

        @Override
        public void put(TaskId task, long checkpointId, TakenSnapshot snapshot) {
            store.put(task, checkpointId, snapshot);
        }

        @Override
        public Optional<byte[]> get(TaskId task, long checkpointId) {
            Map<TaskId, OperatorSnapshot> snapshots = kept.get(task.topology());
            return snapshots == null ? store.get(task, checkpointId)
                    : Optional.ofNullable(snapshots.get(task)).map(OperatorSnapshot::toBytes);
        }

        @Override
        public Map<TaskId, byte[]> getAll(List<TaskId> tasks, long checkpointId) {
            if (tasks.isEmpty() || !kept.containsKey(tasks.get(0).topology())) {
                return store.getAll(tasks, checkpointId);
            }
            Map<TaskId, byte[]> snapshots = new LinkedHashMap<>();
            tasks.forEach(task -> get(task, checkpointId).ifPresent(bytes -> snapshots.put(task, bytes)));
            return snapshots;
        }
    }
}
