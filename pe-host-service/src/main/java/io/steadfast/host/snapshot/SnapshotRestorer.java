package io.steadfast.host.snapshot;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.concurrent.DaemonThreads;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Fetches, for a redeployment, the snapshot of every task placed on this host from one checkpoint. */
public final class SnapshotRestorer {

    /** Snapshots fetched from the store at once. */
    static final int PARALLEL_FETCHES = 4;

    private final SnapshotStore store;
    private final ExecutorService fetchers = Executors.newFixedThreadPool(PARALLEL_FETCHES,
            new DaemonThreads("steadfast-snapshot-fetch"));

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

    /**
     * The snapshots of the given tasks of a plan in a checkpoint, fetched in parallel (at most
     * {@link #PARALLEL_FETCHES} at once).
     */
    public Map<TaskId, OperatorSnapshot> fetch(ExecutionPlan plan, java.util.function.Predicate<TaskId> tasks,
                                               long checkpointId) {
        Map<TaskId, CompletableFuture<OperatorSnapshot>> fetching = new LinkedHashMap<>();
        for (TaskSpec task : plan.tasks()) {
            if (tasks.test(task.id())) {
                fetching.put(task.id(), CompletableFuture.supplyAsync(() -> fetchOne(plan, task.id(), checkpointId),
                        fetchers));
            }
        }
        Map<TaskId, OperatorSnapshot> snapshots = new LinkedHashMap<>();
        for (Map.Entry<TaskId, CompletableFuture<OperatorSnapshot>> snapshot : fetching.entrySet()) {
            try {
                snapshots.put(snapshot.getKey(), snapshot.getValue().join());
            } catch (CompletionException e) {
                fetching.values().forEach(other -> other.cancel(false));
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        return snapshots;
    }

    private OperatorSnapshot fetchOne(ExecutionPlan plan, TaskId task, long checkpointId) {
        Optional<byte[]> bytes;
        try {
            bytes = store.get(task, checkpointId);
        } catch (SnapshotStoreException e) {
            throw new SnapshotUnavailableException(task, checkpointId,
                    SnapshotUnavailableException.Reason.STORE_UNAVAILABLE, "Cannot restore task " + task
                    + " from checkpoint " + checkpointId + ": " + e.getMessage(), e);
        }
        if (bytes.isEmpty()) {
            throw new SnapshotUnavailableException(task, checkpointId,
                    SnapshotUnavailableException.Reason.MISSING, "Cannot restore task " + task
                    + " from checkpoint " + checkpointId + ": the checkpoint-service has no snapshot of it;"
                    + " restore from a completed checkpoint (GET /api/v1/checkpoints/" + plan.topology()
                    + "/latest-completed on the checkpoint-service)", null);
        }
        try {
            return OperatorSnapshot.fromBytes(bytes.get());
        } catch (RuntimeException e) {
            throw new SnapshotUnavailableException(task, checkpointId,
                    SnapshotUnavailableException.Reason.MISSING, "Cannot restore task " + task
                    + " from checkpoint " + checkpointId + ": its stored snapshot is unreadable ("
                    + e.getMessage() + ")", e);
        }
    }
}
