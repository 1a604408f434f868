package io.steadfast.checkpoint.snapshot;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;

/** What the store knows of a stored snapshot (not its bytes). */
public record StoredSnapshot(TopologyId topology, CheckpointId checkpointId, TaskId task, long sizeBytes, int chunks,
        Instant storedAt) {

    public SnapshotKey key() {
        return new SnapshotKey(topology, checkpointId, task);
    }
}
