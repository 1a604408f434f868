package io.steadfast.host.snapshot;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.concurrent.DaemonThreads;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Fetches, for a redeployment, the snapshot of every task placed on this host from one checkpoint. */
public final class SnapshotRestorer {

    /** Requests to the store at once. */
    static final int PARALLEL_FETCHES = 4;
    /** Tasks whose snapshots one request fetches (their ids go in the query string). */
    static final int TASKS_PER_REQUEST = 32;

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
     * The snapshots of the given tasks of a plan in a checkpoint: {@value #TASKS_PER_REQUEST} tasks per request to the
     * store, those requests in parallel (at most {@link #PARALLEL_FETCHES} at once): one request per task costs a
     * round trip per task, which a host recovering several tasks on busy cores waits for.
     */
    public Map<TaskId, OperatorSnapshot> fetch(ExecutionPlan plan, java.util.function.Predicate<TaskId> tasks,
                                               long checkpointId) {
        return fetch(plan.tasks().stream().map(TaskSpec::id).filter(tasks).toList(), checkpointId);
    }

    /**
     * The snapshots of {@code wanted} in a checkpoint, in that order (see {@link #fetch(ExecutionPlan,
     * java.util.function.Predicate, long)}).
     */
    public Map<TaskId, OperatorSnapshot> fetch(List<TaskId> wanted, long checkpointId) {
        List<CompletableFuture<Map<TaskId, byte[]>>> fetching = new ArrayList<>();
        for (int first = 0; first < wanted.size(); first += TASKS_PER_REQUEST) {
            List<TaskId> batch = wanted.subList(first, Math.min(wanted.size(), first + TASKS_PER_REQUEST));
            fetching.add(CompletableFuture.supplyAsync(() -> fetchBatch(batch, checkpointId), fetchers));
        }
        Map<TaskId, byte[]> fetched = new LinkedHashMap<>();
        try {
            fetching.forEach(batch -> fetched.putAll(batch.join()));
        } catch (CompletionException e) {
            fetching.forEach(other -> other.cancel(false));
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        for (TaskId task : wanted) {
            if (!fetched.containsKey(task)) {
                throw new SnapshotUnavailableException(task, checkpointId,
                        SnapshotUnavailableException.Reason.MISSING, "Cannot restore task " + task
                        + " from checkpoint " + checkpointId + ": the checkpoint-service has no snapshot of it;"
                        + " restore from a completed checkpoint (GET /api/v1/checkpoints/" + task.topology()
                        + "/latest-completed on the checkpoint-service)", null);
            }
        }
        Map<TaskId, OperatorSnapshot> snapshots = new LinkedHashMap<>();
        wanted.forEach(task -> snapshots.put(task, readable(task, checkpointId, fetched.get(task))));
        return snapshots;
    }

    private Map<TaskId, byte[]> fetchBatch(List<TaskId> tasks, long checkpointId) {
        try {
            return store.getAll(tasks, checkpointId);
        } catch (SnapshotStoreException e) {
            throw new SnapshotUnavailableException(tasks.get(0), checkpointId,
                    SnapshotUnavailableException.Reason.STORE_UNAVAILABLE, "Cannot restore task " + tasks.get(0)
                    + (tasks.size() > 1 ? " (and " + (tasks.size() - 1) + " more)" : "") + " from checkpoint "
                    + checkpointId + ": " + e.getMessage(), e);
        }
    }

    private static OperatorSnapshot readable(TaskId task, long checkpointId, byte[] bytes) {
        try {
            return OperatorSnapshot.fromBytes(bytes);
        } catch (RuntimeException e) {
            throw new SnapshotUnavailableException(task, checkpointId,
                    SnapshotUnavailableException.Reason.MISSING, "Cannot restore task " + task
                    + " from checkpoint " + checkpointId + ": its stored snapshot is unreadable ("
                    + e.getMessage() + ")", e);
        }
    }
}
