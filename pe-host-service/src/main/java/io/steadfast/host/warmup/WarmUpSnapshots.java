package io.steadfast.host.warmup;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the snapshots of the host's in-process warm-up topologies here, instead of uploading them (the
 * checkpoint-service knows nothing of those topologies and would refuse them), so that the warm-up can recover them
 * in place; every other snapshot goes on to the uploader. Thread-safe.
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
    public void onSnapshot(TaskId task, long checkpointId, OperatorSnapshot snapshot, long syncNanos) {
        Map<TaskId, OperatorSnapshot> snapshots = kept.get(task.topology());
        if (snapshots != null) {
            snapshots.put(task, snapshot);
        } else {
            uploader.onSnapshot(task, checkpointId, snapshot, syncNanos);
        }
    }
}
