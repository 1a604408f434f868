package io.steadfast.host.recovery;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Lost tasks' logged decisions fetched ahead of a recovery that may follow, and what the peers confirm they hold
 * once it does.
 *
 * <p>While the router confirms that a suspected host failed it asks the hosts that would take over its tasks to
 * fetch their snapshots, and with them the earliest runs of their decisions from the peers ({@link #prefetch}):
 * the machines are mostly idle then. The decisions are not final until the failure is: so when the router points the
 * peers' channels away from the lost tasks, each peer also reports the spans of the runs it holds, and the router
 * passes them on to the recovering hosts with the catch-up targets ({@link #confirm}). A recovery then takes the
 * runs fetched ahead from every peer whose spans are unchanged and asks only the others again
 * ({@link DecisionCollector.Prefetched#confirmedBy}); without a prefetch, or without the router's recovery id, it
 * asks every peer when its request arrives. Without the spans in {@link #CONFIRMATION_TIMEOUT} (the
 * router's recovery failed, say) it asks every peer as well. Fetched runs are kept {@link #KEPT_FOR} at most, and at
 * most {@link #MAX_KEPT} tasks' runs and as many confirmations. Thread-safe.
 */
public final class DecisionPrefetches {

    /** How long runs fetched ahead, and confirmations, wait for the recovery that would take them. */
    public static final Duration KEPT_FOR = Duration.ofSeconds(30);
    /** Tasks whose runs are kept at most, and as many confirmations; the oldest go first. */
    public static final int MAX_KEPT = 1_024;
    /** How long a recovery with runs fetched ahead waits for the peers' spans before it asks every peer again. */
    public static final Duration CONFIRMATION_TIMEOUT = Duration.ofSeconds(2);

    private final DecisionCollector collector;
    private final Executor executor;
    private final LongSupplier nanoTime;
    private final Duration confirmationTimeout;
    private final Map<TaskId, Kept<DecisionCollector.Prefetched>> prefetched = new LinkedHashMap<>();
    private final Map<String, Kept<CompletableFuture<Map<URI, Map<TaskId, DecisionSpan>>>>> confirmations =
            new LinkedHashMap<>();

    /**
     * @param executor runs the confirmation and the requests it makes (the collector's requests run on its own)
     */
    public DecisionPrefetches(DecisionCollector collector, Executor executor) {
        this(collector, executor, System::nanoTime, CONFIRMATION_TIMEOUT);
    }

    DecisionPrefetches(DecisionCollector collector, Executor executor, LongSupplier nanoTime,
                          Duration confirmationTimeout) {
        this.collector = collector;
        this.executor = executor;
        this.nanoTime = nanoTime;
        this.confirmationTimeout = confirmationTimeout;
    }

    private record Kept<T>(T value, long sinceNanos) {
    }

    /** Starts fetching the earliest runs of the tasks' decisions from the peers; returns at once. */
    public void prefetch(List<URI> peers, Collection<TaskId> tasks) {
        DecisionCollector.Prefetched runs = collector.prefetch(peers, tasks);
        synchronized (this) {
            forgetExpired();
            Kept<DecisionCollector.Prefetched> kept = new Kept<>(runs, nanoTime.getAsLong());
            tasks.forEach(task -> prefetched.put(task, kept));
            bound(prefetched);
        }
    }

    /**
     * Records what the peers hold of lost tasks' decisions, as they reported when the router of recovery
     * {@code recovery} pointed their channels away from the tasks: the spans by task (none for a task a peer holds
     * nothing of), by peer.
     */
    public void confirm(String recovery, Map<URI, Map<TaskId, DecisionSpan>> held) {
        confirmation(recovery).complete(Map.copyOf(held));
    }

    /**
     * The runs of the tasks' decisions that {@code peers} hold, being collected: those fetched ahead for these
     * tasks, once confirmed for recovery {@code recovery}, or else fetched now. The runs fetched ahead are taken out;
     * what they hold is known at once ({@link Collecting#known}).
     *
     * @param recovery the router's id of the recovery, null if it gave none (nothing fetched ahead is used)
     */
    public Collecting collect(String recovery, List<URI> peers, Collection<TaskId> tasks) {
        return collect(recovery, peers, tasks, Map.of());
    }

    /**
     * As {@link #collect(String, List, Collection)}, for the tasks' recovering {@code incarnations}: every request made
     * from now on names them (see {@link DecisionCollector#prefetch(List, Collection, Map)}).
     */
    public Collecting collect(String recovery, List<URI> peers, Collection<TaskId> tasks,
                              Map<TaskId, Integer> incarnations) {
        DecisionCollector.Prefetched ahead = recovery == null ? null : take(tasks);
        if (ahead == null) {
            return new Collecting(null, CompletableFuture.supplyAsync(() -> collector.prefetch(peers, tasks,
                    incarnations), executor));
        }
        return new Collecting(ahead, confirmation(recovery)
                .completeOnTimeout(Map.of(), confirmationTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .thenApplyAsync(held -> ahead.confirmedBy(held, peers, tasks, incarnations), executor)
                .whenComplete((done, error) -> forget(recovery)));
    }

    /**
     * Decisions of lost tasks being collected for their recovery.
     *
     * @param ahead     the runs fetched ahead, not yet confirmed; null if there were none
     * @param confirmed the runs the peers hold once the failure is confirmed
     */
    public record Collecting(DecisionCollector.@Nullable Prefetched ahead,
                             CompletableFuture<DecisionCollector.Prefetched> confirmed) {

        /**
         * Per task, the first of its decisions from its offset known already: the longest run fetched ahead that
         * holds the offset (empty for a task without one). Each is a prefix of the task's decisions once confirmed.
         */
        public Map<TaskId, byte[]> known(Map<TaskId, Long> offsets) {
            return ahead == null ? Map.of() : ahead.answeredFrom(offsets);
        }
    }

    /** How many prefetches and confirmations are kept. */
    public synchronized int size() {
        forgetExpired();
        return (int) prefetched.values().stream().distinct().count() + confirmations.size();
    }

    /** The runs fetched ahead in one prefetch for all of {@code tasks}, taken out; null if there is none. */
    private synchronized DecisionCollector.Prefetched take(Collection<TaskId> tasks) {
        forgetExpired();
        Set<Kept<DecisionCollector.Prefetched>> found = new HashSet<>();
        tasks.forEach(task -> found.add(prefetched.get(task)));
        tasks.forEach(prefetched::remove);
        return found.size() == 1 && !found.contains(null) ? found.iterator().next().value() : null;
    }

    private synchronized CompletableFuture<Map<URI, Map<TaskId, DecisionSpan>>> confirmation(String recovery) {
        forgetExpired();
        Kept<CompletableFuture<Map<URI, Map<TaskId, DecisionSpan>>>> kept = confirmations.computeIfAbsent(recovery,
                id -> new Kept<>(new CompletableFuture<>(), nanoTime.getAsLong()));
        bound(confirmations);
        return kept.value();
    }

    private synchronized void forget(String recovery) {
        confirmations.remove(recovery);
    }

    private void forgetExpired() {
        long now = nanoTime.getAsLong();
        prefetched.values().removeIf(kept -> now - kept.sinceNanos() > KEPT_FOR.toNanos());
        confirmations.values().removeIf(kept -> now - kept.sinceNanos() > KEPT_FOR.toNanos());
    }

    private static void bound(Map<?, ? extends Kept<?>> kept) {
        Iterator<?> oldest = kept.keySet().iterator();
        while (kept.size() > MAX_KEPT) {
            oldest.next();
            oldest.remove();
        }
    }
}
