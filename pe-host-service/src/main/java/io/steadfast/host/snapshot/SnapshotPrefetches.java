package io.steadfast.host.snapshot;

import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots fetched ahead of a recovery that may follow. When the router suspects a host (a peer lost its
 * data-plane connection to it and it does not answer its probe) it asks the hosts that would take over its tasks to
 * fetch their snapshots while it confirms the failure, which takes up to a heartbeat interval more and leaves the
 * machines mostly idle; the recovery that follows takes them from here instead of fetching them. A snapshot is
 * kept for {@link #KEPT_FOR} at most (a suspicion that ends with the host alive leaves nothing behind for long), at
 * most {@link #MAX_KEPT} of them, and a recovery takes it out. Thread-safe.
 */
public final class SnapshotPrefetches {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotPrefetches.class);
    /** How long a snapshot fetched ahead waits for the recovery that would take it. */
    public static final Duration KEPT_FOR = Duration.ofSeconds(30);
    /** Snapshots kept at most; the oldest go first. */
    public static final int MAX_KEPT = 1_024;
    /** Prefetches that fetch at once (one per suspected host and topology, usually one). */
    private static final int FETCHING_AT_ONCE = 2;

    private final SnapshotRestorer restorer;
    private final Executor executor;
    private final LongSupplier nanoTime;
    private final Map<Key, Prefetched> kept = new LinkedHashMap<>();

    /** Fetching on two threads of its own. */
    public SnapshotPrefetches(SnapshotRestorer restorer) {
        this(restorer, Executors.newFixedThreadPool(FETCHING_AT_ONCE, new DaemonThreads("steadfast-snapshot-prefetch")),
                System::nanoTime);
    }

    SnapshotPrefetches(SnapshotRestorer restorer, Executor executor, LongSupplier nanoTime) {
        this.restorer = restorer;
        this.executor = executor;
        this.nanoTime = nanoTime;
    }

    private record Key(TaskId task, long checkpointId) {
    }

    private record Prefetched(CompletableFuture<OperatorSnapshot> snapshot, long sinceNanos) {
    }

    /**
     * Starts fetching the snapshots of {@code tasks} in a checkpoint, in one batch, unless they are fetched or being
     * fetched already; returns at once.
     *
     * @return how many snapshots it started to fetch
     */
    public int prefetch(Collection<TaskId> tasks, long checkpointId) {
        List<TaskId> missing = new ArrayList<>();
        CompletableFuture<Map<TaskId, OperatorSnapshot>> batch;
        synchronized (this) {
            forgetExpired();
            tasks.stream().distinct().filter(task -> !kept.containsKey(new Key(task, checkpointId)))
                    .forEach(missing::add);
            if (missing.isEmpty()) {
                return 0;
            }
            batch = CompletableFuture.supplyAsync(() -> restorer.fetch(missing, checkpointId), executor);
            long now = nanoTime.getAsLong();
            missing.forEach(task -> kept.put(new Key(task, checkpointId),
                    new Prefetched(batch.thenApply(snapshots -> snapshots.get(task)), now)));
            Iterator<Key> oldest = kept.keySet().iterator();
            while (kept.size() > MAX_KEPT) {
                oldest.next();
                oldest.remove();
            }
        }
        LOG.info("Fetching ahead the snapshots of {} in checkpoint {}, for a recovery that may follow", missing,
                checkpointId);
        long started = System.nanoTime();
        batch.whenComplete((snapshots, error) -> {
            if (error == null) {
                LOG.info("Fetched ahead the snapshots of {} tasks in {} ms", missing.size(),
                        (System.nanoTime() - started) / 1_000_000);
            } else {
                LOG.info("Could not fetch ahead the snapshots of {} in checkpoint {} ({}); a recovery fetches them"
                        + " itself", missing, checkpointId, error.getMessage());
            }
        });
        return missing.size();
    }

    /**
     * Takes out the snapshots of {@code tasks} in a checkpoint if every one of them was fetched ahead, waiting for
     * those still being fetched; empty if one was not, or its fetch failed (the caller fetches them itself).
     */
    public Optional<Map<TaskId, OperatorSnapshot>> take(Collection<TaskId> tasks, long checkpointId) {
        Map<TaskId, CompletableFuture<OperatorSnapshot>> taken = new LinkedHashMap<>();
        synchronized (this) {
            forgetExpired();
            for (TaskId task : tasks) {
                Prefetched prefetched = kept.remove(new Key(task, checkpointId));
                if (prefetched != null) {
                    taken.put(task, prefetched.snapshot());
                }
            }
        }
        if (taken.size() < tasks.size()) {
            return Optional.empty();
        }
        Map<TaskId, OperatorSnapshot> snapshots = new LinkedHashMap<>();
        try {
            taken.forEach((task, snapshot) -> snapshots.put(task, snapshot.join()));
        } catch (CompletionException e) {
            return Optional.empty();
        }
        return Optional.of(snapshots);
    }

    /**
     * Completes with the snapshots of {@code tasks} in a checkpoint once every one is fetched, leaving them to be
     * taken; empty if one of them is not being fetched ahead. Completes exceptionally if a fetch failed.
     */
    public Optional<CompletableFuture<Map<TaskId, OperatorSnapshot>>> whenFetched(Collection<TaskId> tasks,
                                                                                 long checkpointId) {
        Map<TaskId, CompletableFuture<OperatorSnapshot>> fetching = new LinkedHashMap<>();
        synchronized (this) {
            forgetExpired();
            for (TaskId task : tasks) {
                Prefetched prefetched = kept.get(new Key(task, checkpointId));
                if (prefetched == null) {
                    return Optional.empty();
                }
                fetching.put(task, prefetched.snapshot());
            }
        }
        return Optional.of(CompletableFuture.allOf(fetching.values().toArray(CompletableFuture[]::new))
                .thenApply(done -> {
                    Map<TaskId, OperatorSnapshot> snapshots = new LinkedHashMap<>();
                    fetching.forEach((task, snapshot) -> snapshots.put(task, snapshot.join()));
                    return snapshots;
                }));
    }

    /** Whether every one of {@code tasks} has its snapshot in a checkpoint fetched ahead, waiting to be taken. */
    public synchronized boolean fetched(Collection<TaskId> tasks, long checkpointId) {
        forgetExpired();
        return tasks.stream().map(task -> kept.get(new Key(task, checkpointId))).allMatch(prefetched ->
                prefetched != null && prefetched.snapshot().isDone() && !prefetched.snapshot().isCompletedExceptionally());
    }

    /** How many snapshots are kept (fetched or being fetched). */
    public synchronized int size() {
        forgetExpired();
        return kept.size();
    }

    private void forgetExpired() {
        long now = nanoTime.getAsLong();
        kept.values().removeIf(prefetched -> now - prefetched.sinceNanos() > KEPT_FOR.toNanos());
    }
}
