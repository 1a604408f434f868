package io.steadfast.host.recovery;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.replaylog.ReplayLogShipper;
import io.steadfast.host.replaylog.ReplayLogStore;
import io.steadfast.host.snapshot.SnapshotPrefetches;
import io.steadfast.host.snapshot.SnapshotRestorer;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.recovery.HeldDecisions;
import io.steadfast.runtime.recovery.InPlaceRestore;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * The host's part in local recovery: starts lost tasks here in place (restored, replaying the decisions the live hosts
 * hold for them), fetches and prepares ahead what a recovery that may follow needs, hands out the decisions of
 * upstream tasks this host received, points this host's channels at moved tasks, and learns of completed
 * checkpoints. It owns the pool that reads logged output and asks peers for decisions beside the snapshot fetch.
 */
@Service
public class LocalRecoveryService {

    private static final Logger LOG = LoggerFactory.getLogger(LocalRecoveryService.class);
    private static final Duration PEER_TIMEOUT = Duration.ofSeconds(2);
    private static final int PARALLEL_PRELOADS = 8;
    /** The longest a recovery request is taken to have been in transit, whatever the clocks say. */
    static final Duration MAX_TRANSIT = Duration.ofSeconds(5);

    private final ProcessingNode node;
    private final SnapshotRestorer restorer;
    private final ObjectProvider<ReplayLogStore> replayLogs;
    private final ObjectProvider<ReplayLogShipper> shipper;
    /** Reads of logged output and the requests for logged decisions, beside the snapshot fetch. */
    private final ExecutorService recoveryReads = Executors.newFixedThreadPool(PARALLEL_PRELOADS,
            new DaemonThreads("steadfast-recovery-read"));
    private final SnapshotPrefetches prefetched;
    private final DecisionPrefetches decisionsAhead = new DecisionPrefetches(new DecisionCollector(PEER_TIMEOUT),
            recoveryReads);

    public LocalRecoveryService(ProcessingNode node, SnapshotRestorer restorer, SnapshotPrefetches prefetched,
                                ObjectProvider<ReplayLogStore> replayLogs, ObjectProvider<ReplayLogShipper> shipper) {
        this.node = node;
        this.restorer = restorer;
        this.replayLogs = replayLogs;
        this.shipper = shipper;
        this.prefetched = prefetched;
    }

    /**
     * What to recover here.
     *
     * @param plan            the topology's plan
     * @param placement       where every task runs now, the lost ones on this host
     * @param tasks           the lost tasks to start here
     * @param recovering      every task recovered in this round, on any host ({@code tasks} among them)
     * @param checkpointId    the completed checkpoint to restore them from
     * @param latestTriggered the latest checkpoint triggered
     * @param peers           where the lost tasks' logged decisions are asked for
     * @param requestedAt     when the router asked for the recovery (null: unstamped)
     */
    public record Order(ExecutionPlan plan, TaskPlacement placement, Set<TaskId> tasks, Set<TaskId> recovering,
                        long checkpointId, long latestTriggered, Peers peers, @Nullable Instant requestedAt) {
    }

    /**
     * @param recovery the router's id of the recovery, with which the peers' spans are confirmed (null: none)
     * @param hosts    base URLs of the live hosts
     */
    public record Peers(@Nullable String recovery, List<URI> hosts) {
    }

    /**
     * What a recovery here started and took.
     *
     * @param started        the tasks started
     * @param decisionBytes  the logged decisions they replay, in bytes
     * @param snapshotMillis fetching their snapshots
     * @param decisionMillis how long after the snapshots their decisions from the live hosts were in
     * @param startMillis    creating and starting them once the snapshots were in
     */
    public record Recovered(List<TaskId> started, long decisionBytes, long snapshotMillis, long decisionMillis,
                            long startMillis) {
    }

    /**
     * Starts lost tasks here in place: their snapshots (fetched ahead, or now) restored, their logged output on
     * channels to tasks recovered with them preloaded, replaying the decisions fetched ahead at once and those the
     * peers confirm once they are in.
     *
     * @throws io.steadfast.host.execution.DeploymentRejectedException if the tasks cannot run here
     */
    public Recovered recover(Order order) {
        ExecutionPlan plan = order.plan();
        long start = System.nanoTime();
        long transit = requestInTransit(order.requestedAt());
        long askedAt = start - transit;
        TaskPlacement placement = order.placement();
        Set<TaskId> tasks = order.tasks();
        node.requireRoomToRecover(plan, tasks);
        // fetched ahead, or sent from another thread: sending them costs tens of milliseconds on a busy machine
        Map<TaskId, Integer> incarnations = new LinkedHashMap<>();
        tasks.forEach(task -> incarnations.put(task, placement.incarnationOf(task)));
        DecisionPrefetches.Collecting held = decisionsAhead.collect(order.peers().recovery(), order.peers().hosts(),
                tasks, incarnations);
        Optional<Map<TaskId, OperatorSnapshot>> ahead = prefetched.take(tasks, order.checkpointId());
        Map<TaskId, OperatorSnapshot> snapshots = ahead.orElseGet(() -> restorer.fetch(plan, tasks::contains,
                order.checkpointId()));
        long fetchedNanos = System.nanoTime();
        // read while the decisions are collected
        CompletableFuture<Map<ChannelId, List<LogSegment>>> preloads = preloads(plan, placement, snapshots,
                order.recovering());
        Map<TaskId, Long> offsets = new LinkedHashMap<>();
        tasks.forEach(task -> offsets.put(task, snapshots.get(task).positions().decisionOffset()));
        AtomicLong collectedNanos = new AtomicLong();
        AtomicReference<String> decisionsFetched = new AtomicReference<>("");
        // the decisions fetched ahead are replayed at once, those confirmed after them once the router's catch-up
        // message says what the peers hold
        Map<TaskId, byte[]> known = held.known(offsets);
        CompletableFuture<Map<TaskId, byte[]>> decisions = held.confirmed().thenApplyAsync(runs -> {
            Map<TaskId, byte[]> collected = runs.from(offsets);
            collectedNanos.set(System.nanoTime());
            decisionsFetched.set(runs.fetchedAhead() ? "; fetched ahead, " + runs.askedAgain() + " peers asked again"
                    : "");
            return collected;
        }, recoveryReads);
        Map<ChannelId, List<LogSegment>> logged = preloads.join();
        long preloadedNanos = System.nanoTime();
        // created, opened and restoring while the decisions are still collected: each replays those known ahead at
        // once, and takes input beyond them once the rest is in
        List<TaskId> started = node.recoverInPlace(plan, placement, tasks,
                new InPlaceRestore(order.checkpointId(), snapshots, new InPlaceRestore.Decisions(decisions, known),
                        order.latestTriggered(), order.recovering(), askedAt, logged));
        long startedNanos = System.nanoTime();
        long decisionBytes = decisions.join().values().stream().mapToLong(bytes -> bytes.length).sum();
        long decisionsNanos = Math.max(0, collectedNanos.get() - fetchedNanos);
        LOG.info("Recovered {} in place: the request took {} ms to arrive and be read, snapshots {} ms{}, start {} ms"
                + " (of which {} ms waiting for the logged output of {} channels), decisions {} ms after the snapshots"
                + " ({} ms after the start{}; {} bytes known ahead, replayed at once)", started, millis(transit),
                millis(fetchedNanos - start),
                ahead.isPresent() ? " (fetched ahead)" : "",
                millis(startedNanos - fetchedNanos), millis(preloadedNanos - fetchedNanos), logged.size(),
                millis(decisionsNanos), millis(Math.max(0, collectedNanos.get() - startedNanos)),
                decisionsFetched.get(), known.values().stream().mapToLong(bytes -> bytes.length).sum());
        return new Recovered(started, decisionBytes, millis(fetchedNanos - start), millis(decisionsNanos),
                millis(startedNanos - fetchedNanos));
    }

    /**
     * What the recovered tasks had logged, after their snapshots' barriers, on their channels to tasks recovered with
     * them, read back from the checkpoint-service ({@value #PARALLEL_PRELOADS} channels at once: one at a time, a
     * host recovering several tasks waits for each read in turn). A channel whose log cannot be read whole is left
     * out: its sender regenerates the same records by replaying its decisions, only later. Each read names the
     * incarnation the sender recovers as (from {@code placement}), so that its predecessor adds nothing to the log
     * after it.
     */
    private CompletableFuture<Map<ChannelId, List<LogSegment>>> preloads(ExecutionPlan plan, TaskPlacement placement,
                                                                        Map<TaskId, OperatorSnapshot> snapshots,
                                                                        Set<TaskId> recovering) {
        ReplayLogStore store = replayLogs.getIfAvailable();
        if (store == null || !plan.recoveryMode().logsOutput()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        Map<ChannelId, CompletableFuture<List<LogSegment>>> reading = new LinkedHashMap<>();
        snapshots.forEach((task, snapshot) -> plan.channels().stream()
                .filter(channel -> channel.from().equals(task) && recovering.contains(channel.to()))
                .forEach(channel -> {
                    long after = snapshot.positions().outputs().getOrDefault(channel.id().index(), 0L);
                    reading.put(channel.id(), CompletableFuture.supplyAsync(() -> loggedOutput(store, task,
                            placement.incarnationOf(task), channel.id(), after), recoveryReads));
                }));
        return CompletableFuture.allOf(reading.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<ChannelId, List<LogSegment>> preloads = new LinkedHashMap<>();
            reading.forEach((channel, segments) -> {
                List<LogSegment> logged = segments.join();
                if (!logged.isEmpty()) {
                    preloads.put(channel, logged);
                }
            });
            return preloads;
        });
    }

    /**
     * The task's logged output on the channel after {@code after}, as its copy of {@code incarnation} reads it; empty
     * if it cannot be read (logged).
     */
    private static List<LogSegment> loggedOutput(ReplayLogStore store, TaskId task, int incarnation, ChannelId channel,
                                                 long after) {
        try {
            return store.segmentsAfter(channel, after, incarnation);
        } catch (RuntimeException e) {
            LOG.warn("The logged output of {} on channel {} after seq {} cannot be read from the checkpoint-service"
                    + " ({}); its receiver waits for it to be regenerated", task, channel, after, e.getMessage());
            return List.of();
        }
    }

    /**
     * Fetches ahead the snapshots of tasks this host may be asked to recover (the router suspects their host), for the
     * recovery to take instead of fetching them, and then restores the tasks' operators from them ahead too
     * ({@link ProcessingNode#restoreAhead}) and, given the placement the recovery would have, prepares the tasks whole
     * ({@link ProcessingNode#prepareRecovery}); with {@code peers}, fetches the tasks' logged decisions from them ahead
     * as well. Returns at once.
     *
     * @return how many snapshots it started to fetch (those fetched or being fetched already not counted)
     */
    public int prefetch(TopologyId topology, List<TaskId> tasks, long checkpointId, @Nullable TaskPlacement placement,
                        @Nullable List<URI> peers) {
        if (peers != null && !peers.isEmpty()) {
            decisionsAhead.prefetch(peers, tasks);
        }
        int started = prefetched.prefetch(tasks, checkpointId);
        if (started > 0) { // else fetched, or being fetched, and restored ahead once already
            prefetched.whenFetched(tasks, checkpointId).ifPresent(fetching -> fetching.thenAcceptAsync(
                    snapshots -> restoreAhead(topology, snapshots, checkpointId, placement), recoveryReads));
        }
        return started;
    }

    private void restoreAhead(TopologyId topology, Map<TaskId, OperatorSnapshot> snapshots, long checkpointId,
                              @Nullable TaskPlacement placement) {
        long start = System.nanoTime();
        List<TaskId> restored = node.restoreAhead(topology, snapshots, checkpointId);
        if (restored.isEmpty()) {
            return;
        }
        long restoredNanos = System.nanoTime();
        List<TaskId> prepared = placement == null ? List.of()
                : node.prepareRecovery(topology, placement, snapshots, checkpointId);
        LOG.info("Restored ahead the operators of {} from checkpoint {} in {} ms{}, for a recovery that may follow",
                restored, checkpointId, millis(restoredNanos - start), prepared.isEmpty() ? ""
                        : " and prepared those tasks in " + millis(System.nanoTime() - restoredNanos) + " ms");
    }

    /**
     * Refuses {@code task}'s incarnations before {@code incarnation} before its decisions are read (see
     * {@link ProcessingNode#fenceForDecisionsOf}).
     *
     * @return false if this host knows a newer incarnation than the one asking
     */
    public boolean fenceForDecisions(TaskId task, int incarnation) {
        return node.fenceForDecisionsOf(task, incarnation);
    }

    /** The decisions of a task this host received with its input: from offset {@code from}, or the earliest run. */
    public Optional<HeldDecisions> decisionsOf(TaskId task, @Nullable Long from) {
        return from == null ? node.earliestDecisionsOf(task)
                : node.decisionsOf(task, from).map(bytes -> new HeldDecisions(from, bytes));
    }

    /** The earliest run this host holds of each task's decisions, for every one of {@code tasks} it holds any of. */
    public EarliestDecisions earliestDecisionsOf(List<TaskId> tasks) {
        List<EarliestDecisions.Run> runs = new ArrayList<>();
        for (TaskId id : tasks) {
            node.earliestDecisionsOf(id).ifPresent(run -> runs.add(new EarliestDecisions.Run(id, run.from(),
                    run.bytes())));
        }
        return new EarliestDecisions(runs);
    }

    /**
     * How this host pointed its channels at moved tasks.
     *
     * @param heads the last sequence number sent on each channel redirected
     * @param held  the span of the earliest run this host holds of each moved task's logged decisions
     */
    public record Redirection(Map<ChannelId, Long> heads, Map<TaskId, DecisionSpan> held) {
    }

    /**
     * Points this host's channels at moved tasks' new endpoints, refusing their earlier incarnations first, and says
     * what it holds of their decisions: nothing of those earlier incarnations is taken in after the spans answered.
     */
    public Redirection redirect(TopologyId topology, Map<TaskId, String> endpoints, Map<String, HostId> hosts,
                                Map<TaskId, Integer> incarnations) {
        Map<ChannelId, Long> heads = node.redirect(topology, endpoints, hosts, incarnations);
        Map<TaskId, DecisionSpan> held = new LinkedHashMap<>();
        endpoints.keySet().forEach(task -> node.earliestDecisionsOf(task)
                .ifPresent(run -> held.put(task, DecisionSpan.of(run))));
        return new Redirection(heads, held);
    }

    /**
     * Tells the tasks recovered here what their live upstream tasks had sent when redirected to them, and, with the
     * router's recovery id, confirms the decisions fetched ahead by what each peer holds ({@code held}).
     */
    public void catchUpTargets(TopologyId topology, Map<ChannelId, Long> heads, @Nullable String recovery,
                               @Nullable Map<URI, Map<TaskId, DecisionSpan>> held) {
        if (recovery != null && held != null) {
            decisionsAhead.confirm(recovery, held);
        }
        node.catchUpTargets(topology, heads);
    }

    /** A checkpoint of the topology completed: output logs here and the logs shipped may drop what it covers. */
    public void checkpointCompleted(TopologyId topology, long checkpointId) {
        node.checkpointCompleted(topology, checkpointId);
        ReplayLogShipper logs = shipper.getIfAvailable();
        if (logs != null) {
            logs.checkpointCompleted(topology, checkpointId);
        }
    }

    /**
     * How long ago the router sent a request it stamped at {@code requestedAt}, by this host's clock: 0 if unstamped
     * or stamped in the future, at most {@link #MAX_TRANSIT} (clocks of different machines disagree).
     */
    static long requestInTransit(@Nullable Instant requestedAt) {
        if (requestedAt == null) {
            return 0;
        }
        long transit = Duration.between(requestedAt, Instant.now()).toNanos();
        return Math.max(0, Math.min(transit, MAX_TRANSIT.toNanos()));
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
