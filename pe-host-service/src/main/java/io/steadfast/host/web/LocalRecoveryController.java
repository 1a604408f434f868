package io.steadfast.host.web;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.recovery.DecisionCollector;
import io.steadfast.host.recovery.EarliestDecisions;
import io.steadfast.host.recovery.LocalRecoveryService;
import io.steadfast.protocol.host.CatchUpTargets;
import io.steadfast.protocol.host.InPlaceRecoveryRequest;
import io.steadfast.protocol.host.InPlaceRecoveryResponse;
import io.steadfast.protocol.host.Placement;
import io.steadfast.protocol.host.RedirectRequest;
import io.steadfast.protocol.host.RedirectResponse;
import io.steadfast.protocol.host.SnapshotPrefetchRequest;
import io.steadfast.protocol.host.SnapshotPrefetchResponse;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.recovery.HeldDecisions;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
@Tag(name = HostApiDocs.RECOVERY)
class LocalRecoveryController {

    private final ProcessingNode node;
    private final LocalRecoveryService recoveries;

    LocalRecoveryController(ProcessingNode node, LocalRecoveryService recoveries) {
        this.node = node;
        this.recoveries = recoveries;
    }

    @PostMapping("/recoveries")
    @ApiResponse(responseCode = "201", description = "The lost tasks restored here and started")
    ResponseEntity<InPlaceRecoveryResponse> recover(@PathVariable String topologyId,
                                                    @Valid @RequestBody InPlaceRecoveryRequest request) {
        ExecutionPlan plan = planOf(topologyId, request);
        TaskPlacement placement = request.placement().toTaskPlacement();
        Set<TaskId> tasks = new TreeSet<>(request.tasks());
        Set<TaskId> recovering = new TreeSet<>(tasks);
        InPlaceRecoveryRequest.Round round = request.roundOrEmpty();
        if (round.recovering() != null) {
            recovering.addAll(round.recovering());
        }
        CheckpointId latestTriggered = request.checkpoints().latestTriggered();
        LocalRecoveryService.Recovered recovered = recoveries.recover(new LocalRecoveryService.Order(plan, placement,
                tasks, recovering, request.checkpoints().checkpointId().value(),
                latestTriggered == null ? 0 : latestTriggered.value(),
                new LocalRecoveryService.Peers(round.recovery(), request.peers()), round.requestedAt()));
        return ResponseEntity.status(HttpStatus.CREATED).body(new InPlaceRecoveryResponse(recovered.started(),
                recovered.decisionBytes(), recovered.snapshotMillis(), recovered.decisionMillis(),
                recovered.startMillis()));
    }

    /** Fetches ahead what a recovery of the tasks here would need (see {@link LocalRecoveryService#prefetch}). */
    @PostMapping("/snapshot-prefetches")
    @ApiResponse(responseCode = "202", description = "Fetching the snapshots (and decisions) ahead")
    ResponseEntity<SnapshotPrefetchResponse> prefetchSnapshots(@PathVariable String topologyId,
                                                               @Valid @RequestBody SnapshotPrefetchRequest request) {
        TopologyId topology = topology(topologyId);
        List<TaskId> tasks = request.tasks().stream().map(task -> ofTopology(topology, task, "tasks")).toList();
        TaskPlacement placement = request.placement() == null ? null : placementOf(request.placement());
        int started = recoveries.prefetch(topology, tasks, request.checkpointId().value(), placement,
                request.peers());
        return ResponseEntity.accepted().body(new SnapshotPrefetchResponse(started));
    }

    private static TaskPlacement placementOf(Placement placement) {
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
        LocalRecoveryService.Redirection redirected = recoveries.redirect(topology(topologyId), request.endpoints(),
                request.hosts() == null ? Map.of() : request.hosts(),
                request.incarnations() == null ? Map.of() : request.incarnations());
        return new RedirectResponse(redirected.heads().size(), new TreeMap<>(redirected.heads()),
                new TreeMap<>(redirected.held()));
    }

    @PostMapping("/catch-up-targets")
    @ApiResponse(responseCode = "202", description = "Targets taken")
    ResponseEntity<Void> catchUpTargets(@PathVariable String topologyId, @Valid @RequestBody CatchUpTargets request) {
        TopologyId topology = topology(topologyId);
        request.heads().keySet().forEach(channel -> channelOf(topology, channel));
        Map<URI, Map<TaskId, DecisionSpan>> byPeer = new LinkedHashMap<>();
        boolean confirming = request.recovery() != null && request.heldDecisions() != null;
        if (confirming) {
            request.heldDecisions().forEach((peer, spans) -> {
                if (spans == null) {
                    throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heldDecisions: peer " + peer
                            + " has no spans; give {} for a peer that holds nothing of the lost tasks");
                }
                spans.keySet().forEach(task -> ofTopology(topology, task, "heldDecisions"));
                byPeer.put(peer, spans);
            });
        }
        recoveries.catchUpTargets(topology, request.heads(), request.recovery(), confirming ? byPeer : null);
        return ResponseEntity.accepted().build();
    }

    /** A 400 if {@code channel} belongs to another topology than the one the path names. */
    private static void channelOf(TopologyId topology, ChannelId channel) {
        if (!channel.topology().equals(topology)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "heads: channel " + channel
                    + " belongs to topology '" + channel.topology() + "', not '" + topology + "'");
        }
    }

    @PostMapping("/checkpoints/{checkpointId}/completed")
    @ApiResponse(responseCode = "202", description = "Logs up to the checkpoint released")
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
        return ofTopology(topology, parseTask(text), field);
    }

    /** {@code id}, if of the topology the path names; 400 naming {@code field} otherwise. */
    private static TaskId ofTopology(TopologyId topology, TaskId id, String field) {
        if (!id.topology().equals(topology)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, field + ": " + id + " belongs to topology '"
                    + id.topology() + "', not '" + topology + "'");
        }
        return id;
    }
}
