package io.steadfast.host.web;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.recovery.DecisionCollector;
import io.steadfast.host.recovery.EarliestDecisions;
import io.steadfast.host.recovery.LocalRecoveryService;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.recovery.HeldDecisions;
import io.steadfast.runtime.topology.TopologyId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
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
 * The HTTP face of the host's part in local recovery ({@link LocalRecoveryService}): parses the requests, calls the
 * service, and maps its answers and refusals to responses.
 */
@RestController
@RequestMapping("/api/v1/deployments/{topologyId}")
class LocalRecoveryController {

    private final ProcessingNode node;
    private final LocalRecoveryService recoveries;

    LocalRecoveryController(ProcessingNode node, LocalRecoveryService recoveries) {
        this.node = node;
        this.recoveries = recoveries;
    }

    @PostMapping("/recoveries")
    ResponseEntity<InPlaceRecoveryResponse> recover(@PathVariable String topologyId,
                                                    @Valid @RequestBody InPlaceRecoveryRequest request) {
        ExecutionPlan plan = planOf(topologyId, request);
        TaskPlacement placement = request.placement().toTaskPlacement();
        Set<TaskId> tasks = new TreeSet<>(request.tasks().stream().map(TaskId::parse).toList());
        Set<TaskId> recovering = new TreeSet<>(tasks);
        if (request.recovering() != null) {
            request.recovering().forEach(task -> recovering.add(parseTask(task)));
        }
        LocalRecoveryService.Recovered recovered = recoveries.recover(new LocalRecoveryService.Order(plan, placement,
                tasks, recovering, request.checkpointId(), request.latestTriggered(),
                new LocalRecoveryService.Peers(request.recovery(), request.peers()), request.requestedAt()));
        return ResponseEntity.status(HttpStatus.CREATED).body(new InPlaceRecoveryResponse(
                recovered.started().stream().map(TaskId::toString).toList(), recovered.decisionBytes(),
                recovered.snapshotMillis(), recovered.decisionMillis(), recovered.startMillis()));
    }

    /** Fetches ahead what a recovery of the tasks here would need (see {@link LocalRecoveryService#prefetch}). */
    @PostMapping("/snapshot-prefetches")
    ResponseEntity<SnapshotPrefetchAnswer> prefetchSnapshots(@PathVariable String topologyId,
                                                             @Valid @RequestBody SnapshotPrefetch request) {
        TopologyId topology = topology(topologyId);
        List<TaskId> tasks = request.tasks().stream().map(task -> taskOf(topology, task, "tasks")).toList();
        TaskPlacement placement = request.placement() == null ? null : placementOf(request.placement());
        int started = recoveries.prefetch(topology, tasks, request.checkpointId(), placement, request.peers());
        return ResponseEntity.accepted().body(new SnapshotPrefetchAnswer(started));
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
     * The decisions of a task this host received with its input: from offset {@code from}, or without it the
     * earliest run held; the header {@value DecisionCollector#FROM_HEADER} says at which offset they start. With
     * {@code incarnation} (the task's incarnation recovering it), this host first refuses the task's earlier
     * incarnations on its channels, and answers 409 if it knows a newer one than the one asking.
     */
    @GetMapping(path = "/decisions", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    ResponseEntity<byte[]> decisions(@PathVariable String topologyId, @RequestParam String task,
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
        Optional<HeldDecisions> held = recoveries.decisionsOf(id, from);
        return held.map(run -> ResponseEntity.ok().header(DecisionCollector.FROM_HEADER, Long.toString(run.from()))
                .body(run.bytes())).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "Host "
                + node.id() + " holds no decisions of task " + task + (from == null ? "" : " from offset " + from)));
    }

    /**
     * The earliest run this host holds of each task's decisions, for every task asked about that it holds any of:
     * what a recovering host asks each peer once for all the tasks it recovers.
     */
    @GetMapping(path = "/decisions/earliest", produces = MediaType.APPLICATION_JSON_VALUE)
    EarliestDecisions earliestDecisions(@PathVariable String topologyId, @RequestParam List<String> task,
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
        return recoveries.earliestDecisionsOf(tasks);
    }

    /**
     * Refuses the earlier incarnations of the tasks asked about before their decisions are read (see
     * {@link LocalRecoveryService#fenceForDecisions}); a 409 if one of the incarnations asking is superseded here.
     */
    private void fenceForDecisions(Map<TaskId, Integer> asking) {
        asking.forEach((task, incarnation) -> {
            if (incarnation < 0) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "incarnation: must be >= 0, not "
                        + incarnation + " (task " + task + ")");
            }
            if (!recoveries.fenceForDecisions(task, incarnation)) {
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
        LocalRecoveryService.Redirection redirected = recoveries.redirect(topology(topologyId), endpoints, hosts,
                incarnations);
        Map<String, Long> byChannel = new TreeMap<>();
        redirected.heads().forEach((channel, head) -> byChannel.put(channel.toString(), head));
        Map<String, DecisionSpan> held = new TreeMap<>();
        redirected.held().forEach((task, span) -> held.put(task.toString(), span));
        return new RedirectResponse(redirected.heads().size(), byChannel, held);
    }

    @PostMapping("/catch-up-targets")
    ResponseEntity<Void> catchUpTargets(@PathVariable String topologyId, @Valid @RequestBody CatchUpTargets request) {
        TopologyId topology = topology(topologyId);
        Map<ChannelId, Long> heads = new LinkedHashMap<>();
        request.heads().forEach((channel, head) -> heads.put(parseChannel(topology, channel), head));
        Map<URI, Map<TaskId, DecisionSpan>> byPeer = new LinkedHashMap<>();
        boolean confirming = request.recovery() != null && request.heldDecisions() != null;
        if (confirming) {
            request.heldDecisions().forEach((peer, spans) -> {
                Map<TaskId, DecisionSpan> byTask = new LinkedHashMap<>();
                if (spans == null) {
                    throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heldDecisions: peer " + peer
                            + " has no spans; give {} for a peer that holds nothing of the lost tasks");
                }
                spans.forEach((task, span) -> byTask.put(taskOf(topology, task, "heldDecisions"), span));
                byPeer.put(peerOf(peer), byTask);
            });
        }
        recoveries.catchUpTargets(topology, heads, request.recovery(), confirming ? byPeer : null);
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
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heldDecisions: '" + peer + "' is not a"
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
        recoveries.checkpointCompleted(topology(topologyId), checkpointId);
        return ResponseEntity.accepted().build();
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
     * @param heldDecisions the span of the earliest run this host holds of each moved task's logged decisions, by
     *                 task id (none for a task it holds nothing of; pass them on with the catch-up targets)
     */
    record RedirectResponse(int channels, Map<String, Long> heads, Map<String, DecisionSpan> heldDecisions) {
    }

    /**
     * @param heads            what live upstream tasks had sent on each channel to a task recovered here, by channel id
     * @param recovery         the router's id of the recovery, as in its recovery request (optional)
     * @param heldDecisions what each peer that pointed its channels away from the lost tasks holds of their logged
     *                         decisions, as it answered {@code POST .../redirects}, by the peer's base URL (optional)
     */
    record CatchUpTargets(@NotNull Map<String, Long> heads, @Nullable String recovery,
                          @Nullable Map<String, Map<String, DecisionSpan>> heldDecisions) {
    }

    /**
     * @param tasks           the tasks started
     * @param decisionBytes   the logged decisions they replay, in bytes
     * @param snapshotMillis  fetching their snapshots
     * @param decisionMillis how long after the snapshots their decisions from the live hosts were in (collected
     *                          while the snapshots were fetched and the tasks started)
     * @param startMillis     creating and starting them once the snapshots were in (each restores its state on its
     *                        own thread, and takes input once the decisions are in)
     */
    record InPlaceRecoveryResponse(List<String> tasks, long decisionBytes, long snapshotMillis,
                                   long decisionMillis, long startMillis) {
    }
}
