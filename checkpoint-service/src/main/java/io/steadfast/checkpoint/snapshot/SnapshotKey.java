package io.steadfast.checkpoint.snapshot;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Objects;

/** Which snapshot: one per task and checkpoint of a topology. The task must belong to the topology. */
public record SnapshotKey(TopologyId topology, CheckpointId checkpointId, TaskId task) {

    public SnapshotKey {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(checkpointId, "checkpointId");
        Objects.requireNonNull(task, "task");
        if (!task.topology().equals(topology)) {
            throw new IllegalArgumentException("Task '" + task + "' belongs to topology '" + task.topology()
                    + "', not '" + topology + "'; use a task id of the form " + topology + "/operator#subtask");
        }
    }

    public static SnapshotKey of(TopologyId topology, CheckpointId checkpointId, TaskId task) {
        return new SnapshotKey(topology, checkpointId, task);
    }

    @Override
    public String toString() {
        return "snapshot of task '" + task + "' in checkpoint " + checkpointId + " of topology '" + topology + "'";
    }
}
