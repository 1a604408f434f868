package io.steadfast.host.snapshot;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Fetches, for a redeployment, the snapshot of every task placed on this host from one checkpoint. */
public final class SnapshotRestorer {

    private final SnapshotStore store;

    public SnapshotRestorer(SnapshotStore store) {
        this.store = store;
    }

    /**
     * @throws SnapshotUnavailableException naming the first task whose snapshot is missing or unreadable, or
     *                                      that could not be fetched
     */
    public Map<TaskId, OperatorSnapshot> fetch(ExecutionPlan plan, TaskPlacement placement, HostId here,
                                               long checkpointId) {
        return fetch(plan, task -> here.equals(placement.hosts().get(task)), checkpointId);
    }

    /** The snapshots of the given tasks of a plan in a checkpoint. */
    public Map<TaskId, OperatorSnapshot> fetch(ExecutionPlan plan, java.util.function.Predicate<TaskId> tasks,
                                               long checkpointId) {
        Map<TaskId, OperatorSnapshot> snapshots = new LinkedHashMap<>();
        for (TaskSpec task : plan.tasks()) {
            if (!tasks.test(task.id())) {
                continue;
            }
            Optional<byte[]> bytes;
            try {
                bytes = store.get(task.id(), checkpointId);
            } catch (SnapshotStoreException e) {
                throw new SnapshotUnavailableException(task.id(), checkpointId,
                        SnapshotUnavailableException.Reason.STORE_UNAVAILABLE, "Cannot restore task " + task.id()
                        + " from checkpoint " + checkpointId + ": " + e.getMessage(), e);
            }
            if (bytes.isEmpty()) {
                throw new SnapshotUnavailableException(task.id(), checkpointId,
                        SnapshotUnavailableException.Reason.MISSING, "Cannot restore task " + task.id()
                        + " from checkpoint " + checkpointId + ": the checkpoint-service has no snapshot of it;"
                        + " restore from a completed checkpoint (GET /api/v1/checkpoints/" + plan.topology()
                        + "/latest-completed on the checkpoint-service)", null);
            }
            try {
                snapshots.put(task.id(), OperatorSnapshot.fromBytes(bytes.get()));
            } catch (RuntimeException e) {
                throw new SnapshotUnavailableException(task.id(), checkpointId,
                        SnapshotUnavailableException.Reason.MISSING, "Cannot restore task " + task.id()
                        + " from checkpoint " + checkpointId + ": its stored snapshot is unreadable ("
                        + e.getMessage() + ")", e);
            }
        }
        return snapshots;
    }
}
