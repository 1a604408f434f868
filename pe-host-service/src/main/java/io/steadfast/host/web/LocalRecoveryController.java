package io.steadfast.host.web;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.recovery.DeterminantCollector;
import io.steadfast.host.recovery.DeterminantPrefetches;
import io.steadfast.host.recovery.EarliestDeterminants;
import io.steadfast.host.replaylog.ReplayLogShipper;
import io.steadfast.host.replaylog.ReplayLogStore;
import io.steadfast.host.snapshot.SnapshotPrefetches;
import io.steadfast.host.snapshot.SnapshotRestorer;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.host.DeterminantSpan;
import io.steadfast.runtime.host.HeldDeterminants;
import io.steadfast.runtime.host.InPlaceRestore;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.topology.TopologyId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The host's part in local recovery: start lost tasks here in place (restored, replaying the decisions the
 * live hosts hold for them), hand out the decisions of upstream tasks this host received, point this host's
 * channels at moved tasks, and learn of completed checkpoints (to truncate output logs).
 */
@RestController
@RequestMapping("/api/v1/deployments/{topologyId}")
class LocalRecoveryController {

    private static final Logger LOG = LoggerFactory.getLogger(LocalRecoveryController.class);
    private static final Duration PEER_TIMEOUT = Duration.ofSeconds(2);
    private static final int PARALLEL_PRELOADS = 8;
    /** The longest a recovery request is taken to have been in transit, whatever the clocks say. */
    static final Duration MAX_TRANSIT = Duration.ofSeconds(5);

    private final ProcessingNode node;
    private final SnapshotRestorer restorer;
    private final ObjectProvider<ReplayLogStore> replayLogs;
    private final ObjectProvider<ReplayLogShipper> shipper;
    private final DeterminantCollector determinants = new DeterminantCollector(PEER_TIMEOUT);
    /** Reads of logged output and the requests for logged decisions, beside the snapshot fetch. */
    private final ExecutorService recoveryReads = Executors.newFixedThreadPool(PARALLEL_PRELOADS,
            new DaemonThreads("steadfast-recovery-read"));
    private final SnapshotPrefetches prefetched;
    private final DeterminantPrefetches decisionsAhead = new DeterminantPrefetches(determinants, recoveryReads);

    LocalRecoveryController(ProcessingNode node, SnapshotRestorer restorer, SnapshotPrefetches prefetched,
                            ObjectProvider<ReplayLogStore> replayLogs, ObjectProvider<ReplayLogShipper> shipper) {
        this.node = node;
        this.restorer = restorer;
        this.replayLogs = replayLogs;
        this.shipper = shipper;
        this.prefetched = prefetched;
    }

    @PostMapping("/recoveries")
    ResponseEntity<InPlaceRecoveryResponse> recover(@PathVariable String topologyId,
                                                    @Valid @RequestBody InPlaceRecoveryRequest request) {
        ExecutionPlan plan = planOf(topologyId, request);
        long start = System.nanoTime();
        long transit = requestInTransit(request.requestedAt());
        long askedAt = start - transit;
        TaskPlacement placement = request.placement().toTaskPlacement();
        Set<TaskId> tasks = new TreeSet<>(request.tasks().stream().map(TaskId::parse).toList());
        node.requireRoomToRecover(plan, tasks);
        // fetched ahead, or sent from another thread: sending them took up to 66 ms on a busy machine
        Map<TaskId, Integer> incarnations = new LinkedHashMap<>();
        tasks.forEach(task -> incarnations.put(task, placement.incarnationOf(task)));
        DeterminantPrefetches.Collecting held = decisionsAhead.collect(request.recovery(), request.peers(), tasks,
                incarnations);
        Optional<Map<TaskId, OperatorSnapshot>> ahead = prefetched.take(tasks, request.checkpointId());
        Map<TaskId, OperatorSnapshot> snapshots = ahead.orElseGet(() -> restorer.fetch(plan, tasks::contains,
                request.checkpointId()));
        long fetchedNanos = System.nanoTime();
        Set<TaskId> recovering = new TreeSet<>(tasks);
        if (request.recovering() != null) {
            request.recovering().forEach(task -> recovering.add(parseTask(task)));
        }
        // read while the decisions are collected
        CompletableFuture<Map<ChannelId, List<LogSegment>>> preloads = preloads(plan, placement, snapshots,
                recovering);
        Map<TaskId, Long> offsets = new LinkedHashMap<>();
        tasks.forEach(task -> offsets.put(task, snapshots.get(task).positions().determinantOffset()));
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
        // created, opened and restoring while the decisions are still collected: each replays those known ahead at once,
        // and takes input beyond them once the rest is in
        List<TaskId> started = node.recoverInPlace(plan, placement, tasks,
                new InPlaceRestore(request.checkpointId(), snapshots, decisions, known, request.latestTriggered(),
                        recovering, askedAt, logged));
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
        return ResponseEntity.status(HttpStatus.CREATED).body(new InPlaceRecoveryResponse(
                started.stream().map(TaskId::toString).toList(), decisionBytes,
                millis(fetchedNanos - start), millis(decisionsNanos), millis(startedNanos - fetchedNanos)));
    }

    /**
     * What the recovered tasks had logged, after their snapshots' barriers, on their channels to tasks recovered with
     * them, read back from the checkpoint-service ({@value #PARALLEL_PRELOADS} channels at once: one at a time, a
     * host recovering four tasks of a 32-task job spent 100-200 ms on them). A channel whose log cannot be read whole
     * is left out: its sender regenerates the same records by replaying its determinants, only later. Each read names
     * the incarnation the sender recovers as (from {@code placement}), so that its predecessor adds nothing to the log
     * after it.
     */
    private CompletableFuture<Map<ChannelId, List<LogSegment>>> preloads(ExecutionPlan plan, TaskPlacement placement,
                                                                        Map<TaskId, OperatorSnapshot> snapshots,
                                                                        Set<TaskId> recovering) {
        ReplayLogStore store = replayLogs.getIfAvailable();
        if (store == null || plan.recoveryMode() != RecoveryMode.LOCAL) {
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
     * ({@link ProcessingNode#prepareRecovery}); answers at once.
     */
    @PostMapping("/snapshot-prefetches")
    ResponseEntity<SnapshotPrefetchAnswer> prefetchSnapshots(@PathVariable String topologyId,
                                                             @Valid @RequestBody SnapshotPrefetch request) {
        TopologyId topology = topology(topologyId);
        List<TaskId> tasks = request.tasks().stream().map(task -> taskOf(topology, task, "tasks")).toList();
        TaskPlacement placement = request.placement() == null ? null : placementOf(request.placement());
        if (request.peers() != null && !request.peers().isEmpty()) {
            decisionsAhead.prefetch(request.peers(), tasks);
        }
        long checkpointId = request.checkpointId();
        int started = prefetched.prefetch(tasks, checkpointId);
        if (started > 0) { // else fetched, or being fetched, and restored ahead once already
            prefetched.whenFetched(tasks, checkpointId).ifPresent(fetching -> fetching.thenAcceptAsync(
                    snapshots -> restoreAhead(topology, snapshots, checkpointId, placement), recoveryReads));
        }
        return ResponseEntity.accepted().body(new SnapshotPrefetchAnswer(started));
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

    private static TaskPlacement placementOf(DeploymentRequest.Placement placement) {
        try {
            return placement.toTaskPlacement();
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "placement: " + e.getMessage() + "; give the"
                    + " placement the recovery would have, as a recovery request does (task id to host, host to"
                    + " data-plane endpoint)");
        }
    }

    /**
     * The determinants of a task this host received with its input: from offset {@code from}, or without it the
     * earliest run held; the header {@value DeterminantCollector#FROM_HEADER} says at which offset they start. With
     * {@code incarnation} (the task's incarnation recovering it), this host first refuses the task's earlier
     * incarnations on its channels, and answers 409 if it knows a newer one than the one asking.
     */
    @GetMapping(path = "/determinants", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    ResponseEntity<byte[]> determinants(@PathVariable String topologyId, @RequestParam String task,
                                        @RequestParam(required = false) Long from,
                                        @RequestParam(required = false) Integer incarnation) {
        TaskId id = parseTask(task);
        if (from != null && from < 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "from: must be >= 0, not " + from
                    + "; give the log offset to read from, or leave it out for the earliest run held");
        }
        if (incarnation != null) {
            fenceForDecisions(Map.of(id, incarnation));
        }
        Optional<HeldDeterminants> held = from == null ? node.earliestDeterminantsOf(id)
                : node.determinantsOf(id, from).map(bytes -> new HeldDeterminants(from, bytes));
        return held.map(run -> ResponseEntity.ok().header(DeterminantCollector.FROM_HEADER, Long.toString(run.from()))
                .body(run.bytes())).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "Host "
                + node.id() + " holds no determinants of task " + task + (from == null ? "" : " from offset " + from)));
    }

    /**
     * The earliest run this host holds of each task's determinants, for every task asked about that it holds any of:
     * what a recovering host asks each peer once for all the tasks it recovers.
     */
    @GetMapping(path = "/determinants/earliest", produces = MediaType.APPLICATION_JSON_VALUE)
    EarliestDeterminants earliestDeterminants(@PathVariable String topologyId, @RequestParam List<String> task,
                                              @RequestParam(required = false) List<Integer> incarnation) {
        TopologyId topology = topology(topologyId);
        List<TaskId> tasks = task.stream().map(text -> taskOf(topology, text, "task")).toList();
        if (incarnation != null) {
            if (incarnation.size() != tasks.size()) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "incarnation: " + incarnation.size()
                        + " given for " + tasks.size() + " tasks; give one per task, in the order of the tasks");
            }
            Map<TaskId, Integer> asking = new LinkedHashMap<>();
            for (int i = 0; i < tasks.size(); i++) {
                asking.put(tasks.get(i), incarnation.get(i));
            }
            fenceForDecisions(asking);
        }
        List<EarliestDeterminants.Run> runs = new ArrayList<>();
        for (TaskId id : tasks) {
            node.earliestDeterminantsOf(id).ifPresent(run -> runs.add(
                    new EarliestDeterminants.Run(id, run.from(), run.bytes())));
        }
        return new EarliestDeterminants(runs);
    }

    /**
     * Refuses the earlier incarnations of the tasks asked about before their decisions are read (see
     * {@link ProcessingNode#fenceForDecisionsOf}); a 409 if one of the incarnations asking is superseded here.
     */
    private void fenceForDecisions(Map<TaskId, Integer> asking) {
        asking.forEach((task, incarnation) -> {
            if (incarnation < 0) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "incarnation: must be >= 0, not "
                        + incarnation + " (task " + task + ")");
            }
            if (!node.fenceForDecisionsOf(task, incarnation)) {
                throw new SupersededIncarnationException(node.id(), task, incarnation);
            }
        });
    }

    @PostMapping("/redirects")
    RedirectResponse redirect(@PathVariable String topologyId, @Valid @RequestBody RedirectRequest request) {
        Map<TaskId, String> endpoints = new LinkedHashMap<>();
        request.endpoints().forEach((task, endpoint) -> endpoints.put(parseTask(task), endpoint));
        Map<String, HostId> hosts = new LinkedHashMap<>();
        if (request.hosts() != null) {
            request.hosts().forEach((endpoint, host) -> hosts.put(endpoint, hostOf(host)));
        }
        Map<TaskId, Integer> incarnations = new LinkedHashMap<>();
        if (request.incarnations() != null) {
            request.incarnations().forEach((task, incarnation) -> incarnations.put(parseTask(task), incarnation));
        }
        // fenced first: nothing of the moved tasks' earlier incarnations is taken in after the spans answered below
        Map<ChannelId, Long> heads = node.redirect(topology(topologyId), endpoints, hosts, incarnations);
        Map<String, Long> byChannel = new TreeMap<>();
        heads.forEach((channel, head) -> byChannel.put(channel.toString(), head));
        Map<String, DeterminantSpan> held = new TreeMap<>();
        endpoints.keySet().forEach(task -> node.earliestDeterminantsOf(task)
                .ifPresent(run -> held.put(task.toString(), DeterminantSpan.of(run))));
        return new RedirectResponse(heads.size(), byChannel, held);
    }

    @PostMapping("/catch-up-targets")
    ResponseEntity<Void> catchUpTargets(@PathVariable String topologyId, @Valid @RequestBody CatchUpTargets request) {
        TopologyId topology = topology(topologyId);
        Map<ChannelId, Long> heads = new LinkedHashMap<>();
        request.heads().forEach((channel, head) -> heads.put(parseChannel(topology, channel), head));
        if (request.recovery() != null && request.heldDeterminants() != null) {
            Map<URI, Map<TaskId, DeterminantSpan>> held = new LinkedHashMap<>();
            request.heldDeterminants().forEach((peer, spans) -> {
                Map<TaskId, DeterminantSpan> byTask = new LinkedHashMap<>();
                if (spans == null) {
                    throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heldDeterminants: peer " + peer
                            + " has no spans; give {} for a peer that holds nothing of the lost tasks");
                }
                spans.forEach((task, span) -> byTask.put(taskOf(topology, task, "heldDeterminants"), span));
                held.put(peerOf(peer), byTask);
            });
            decisionsAhead.confirm(request.recovery(), held);
        }
        node.catchUpTargets(topology, heads);
        return ResponseEntity.accepted().build();
    }

    private static HostId hostOf(String host) {
        try {
            return new HostId(host);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "hosts: " + e.getMessage()
                    + "; name the host behind each endpoint by its id, as it registered with the router");
        }
    }

    private static URI peerOf(String peer) {
        try {
            return new URI(peer);
        } catch (URISyntaxException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heldDeterminants: '" + peer + "' is not a"
                    + " URL; key each peer's spans by its base URL, as the recovery request's peers name it");
        }
    }

    private static ChannelId parseChannel(TopologyId topology, String channel) {
        ChannelId id;
        try {
            id = ChannelId.parse(channel);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heads: " + e.getMessage()
                    + "; key each head by its channel id, topology~index@epoch, as POST .../redirects answers");
        }
        if (!id.topology().equals(topology)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heads: channel " + channel
                    + " belongs to topology '" + id.topology() + "', not '" + topology + "'");
        }
        return id;
    }

    @PostMapping("/checkpoints/{checkpointId}/completed")
    ResponseEntity<Void> checkpointCompleted(@PathVariable String topologyId, @PathVariable long checkpointId) {
        node.checkpointCompleted(topology(topologyId), checkpointId);
        ReplayLogShipper logs = shipper.getIfAvailable();
        if (logs != null) {
            logs.checkpointCompleted(topology(topologyId), checkpointId);
        }
        return ResponseEntity.accepted().build();
    }

    /**
     * How long ago the router sent a request it stamped at {@code requestedAt}, by this host's clock: 0 if unstamped
     * or stamped in the future, at most {@link #MAX_TRANSIT} (clocks of different machines disagree).
     */
    static long requestInTransit(Instant requestedAt) {
        if (requestedAt == null) {
            return 0;
        }
        long transit = Duration.between(requestedAt, Instant.now()).toNanos();
        return Math.max(0, Math.min(transit, MAX_TRANSIT.toNanos()));
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    private static TopologyId topology(String topologyId) {
        if (!TopologyId.isValid(topologyId)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "'" + topologyId + "' is not a topology id");
        }
        return TopologyId.of(topologyId);
    }

    private static TaskId parseTask(String task) {
        try {
            return TaskId.parse(task);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "task: " + e.getMessage()
                    + "; give a task id as topology/operator#subtask");
        }
    }

    /** The plan the request carries, or else the one this host holds at the request's epoch. */
    private ExecutionPlan planOf(String topologyId, InPlaceRecoveryRequest request) {
        TopologyId topology = topology(topologyId);
        ExecutionPlan plan = request.plan();
        if (plan != null) {
            if (!plan.topology().equals(topology)) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "plan.topology is '" + plan.topology()
                        + "' but the path names '" + topologyId + "'");
            }
            if (request.epoch() != null && request.epoch() != plan.epoch()) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "epoch is " + request.epoch()
                        + " but plan.epoch is " + plan.epoch() + "; give the plan's epoch or leave it out");
            }
            return plan;
        }
        if (request.epoch() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "plan: missing; give the topology's plan, or"
                    + " its epoch if this host runs tasks of the topology or fetched its plan ahead");
        }
        return node.planAt(topology, request.epoch())
                .orElseThrow(() -> new PlanNotHeldException(node.id(), topology, request.epoch()));
    }

    /** A task id of the topology the path names; 400 naming {@code field} otherwise. */
    private static TaskId taskOf(TopologyId topology, String text, String field) {
        TaskId id = parseTask(text);
        if (!id.topology().equals(topology)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, field + ": " + text + " belongs to topology '"
                    + id.topology() + "', not '" + topology + "'");
        }
        return id;
    }

    /**
     * @param checkpointId the completed checkpoint whose snapshots to fetch
     * @param tasks        the tasks whose snapshots to fetch
     * @param peers        base URLs of the live hosts to fetch the tasks' logged decisions from ahead as well
     *                     (optional; the recovery then takes them once the peers confirm they hold no more)
     * @param placement    where every task would run after the recovery, these on this host (optional; with it the
     *                     tasks are prepared whole ahead, for a recovery with that placement)
     */
    record SnapshotPrefetch(@NotNull @Min(1) Long checkpointId, @NotEmpty List<String> tasks,
                            @Nullable List<URI> peers, @Valid DeploymentRequest.@Nullable Placement placement) {
    }

    /** @param started how many snapshots it started to fetch (those fetched or being fetched already not counted) */
    record SnapshotPrefetchAnswer(int started) {
    }

    /**
     * @param endpoints the new data-plane endpoint of each moved task
     * @param hosts     the host behind each of those endpoints (optional): this host then names it when its
     *                  data-plane connection there drops, which has the router check it at once
     * @param incarnations the incarnation each moved task runs as now (optional): this host refuses frames of the
     *                  earlier ones from then on
     */
    record RedirectRequest(@NotEmpty Map<String, String> endpoints, @Nullable Map<String, String> hosts,
                           @Nullable Map<String, Integer> incarnations) {
    }

    /**
     * @param channels how many of this host's channels now point at a moved task
     * @param heads    the last sequence number sent on each of them, by channel id: what the moved task must take
     *                 in to have caught up (pass them on with {@code POST .../catch-up-targets})
     * @param heldDeterminants the span of the earliest run this host holds of each moved task's logged decisions, by
     *                 task id (none for a task it holds nothing of; pass them on with the catch-up targets)
     */
    record RedirectResponse(int channels, Map<String, Long> heads, Map<String, DeterminantSpan> heldDeterminants) {
    }

    /**
     * @param heads            what live upstream tasks had sent on each channel to a task recovered here, by channel id
     * @param recovery         the router's id of the recovery, as in its recovery request (optional)
     * @param heldDeterminants what each peer that pointed its channels away from the lost tasks holds of their logged
     *                         decisions, as it answered {@code POST .../redirects}, by the peer's base URL (optional)
     */
    record CatchUpTargets(@NotNull Map<String, Long> heads, @Nullable String recovery,
                          @Nullable Map<String, Map<String, DeterminantSpan>> heldDeterminants) {
    }

    /**
     * @param tasks           the tasks started
     * @param determinantBytes the logged decisions they replay, in bytes
     * @param snapshotMillis  fetching their snapshots
     * @param determinantMillis how long after the snapshots their decisions from the live hosts were in (collected
     *                          while the snapshots were fetched and the tasks started)
     * @param startMillis     creating and starting them once the snapshots were in (each restores its state on its
     *                        own thread, and takes input once the decisions are in)
     */
    record InPlaceRecoveryResponse(List<String> tasks, long determinantBytes, long snapshotMillis,
                                   long determinantMillis, long startMillis) {
    }
}
