package io.steadfast.router.web;

import io.steadfast.protocol.checkpoint.CheckpointAck;
import io.steadfast.protocol.checkpoint.CheckpointAckBatch;
import io.steadfast.protocol.checkpoint.CheckpointNack;
import io.steadfast.protocol.problem.ProblemType;
import io.steadfast.protocol.problem.web.ProblemApiDocs;
import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.router.CheckpointTriggered;
import io.steadfast.protocol.router.TopologyCheckpoints;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CheckpointRecordsException;
import io.steadfast.router.checkpoint.CheckpointingStatus;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.checkpoint.TaskAck;
import io.steadfast.router.checkpoint.TriggerResult;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyException;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Lists and triggers a topology's checkpoints, and takes the hosts' acks and nacks. */
@RestController
@Tag(name = RouterApiDocs.CHECKPOINTS)
@RequestMapping("/api/v1/topologies/{id}/checkpoints")
class CheckpointController {

    private final TopologyRepository topologies;
    private final CheckpointCoordinators coordinators;
    private final CheckpointRecords records;

    CheckpointController(TopologyRepository topologies, CheckpointCoordinators coordinators,
                         CheckpointRecords records) {
        this.topologies = topologies;
        this.coordinators = coordinators;
        this.records = records;
    }

    /**
     * The checkpoints the store keeps, with how the topology is checkpointed now.
     *
     * @throws CheckpointRecordsException if the store cannot be read (503 when it is unreachable)
     */
    @GetMapping
    @Operation(operationId = "listCheckpoints")
    TopologyCheckpoints list(@PathVariable String id) {
        TopologyId topology = deployed(id);
        CheckpointId latest = coordinators.lastCompleted(topology).map(CompletedCheckpoint::checkpointId)
                .map(CheckpointId::of).orElse(null);
        TopologyCheckpoints.Checkpointing checkpointing = coordinators.status(topology)
                .map(CheckpointController::checkpointingOf).orElse(null);
        return new TopologyCheckpoints(topology, latest, checkpointing, records.list(topology));
    }

    /**
     * One checkpoint as the store records it, with every task that must acknowledge it: whether it did, when, its
     * snapshot's size and timings, and the host the task is placed on now; while it is pending, with the acks this
     * router took so far. 404 for a topology that is not deployed or a checkpoint the store does not keep (any more:
     * it keeps the latest few).
     *
     * @throws CheckpointRecordsException if the store cannot be read (503 when it is unreachable)
     */
    @GetMapping("/{checkpointId}")
    @Operation(operationId = "getCheckpoint", summary = "A checkpoint with each task's ack")
    @ApiResponse(responseCode = "200", description = "The checkpoint, its tasks' acks and the tasks still missing")
    @ApiResponse(responseCode = "404", description = "The topology is not deployed (reason NOT_FOUND), or the store"
            + " keeps no such checkpoint of it (CHECKPOINT_NOT_FOUND)", content = @Content(
            mediaType = "application/problem+json", schema = @Schema(ref = "#/components/schemas/"
            + ProblemApiDocs.PROBLEM)))
    CheckpointDetail get(@PathVariable String id, @PathVariable long checkpointId) {
        DeployedTopology topology = deployedTopology(id);
        if (checkpointId < 0) {
            throw new IllegalArgumentException("checkpointId: must be >= 0, was " + checkpointId + "; use an id as"
                    + " GET /api/v1/topologies/" + id + "/checkpoints lists it");
        }
        return records.find(topology.id(), checkpointId)
                .map(detail -> withPendingAcks(detail, checkpointId).withHosts(topology.placement()))
                .orElseThrow(() -> checkpointNotFound(topology.id(), checkpointId));
    }

    /**
     * A pending checkpoint's acks are in the coordinator until it completes: those are shown as acked (their
     * {@code ackedAt} null), so that the tasks still missing are the ones that hold it up.
     */
    private CheckpointDetail withPendingAcks(CheckpointDetail detail, long checkpointId) {
        if (!CheckpointSummary.PENDING.equals(detail.summary().status())) {
            return detail;
        }
        return coordinators.coordinator(detail.topology())
                .flatMap(coordinator -> coordinator.pendingAcks(checkpointId))
                .map(acks -> detail.withAcks(acks.stream().collect(Collectors.toMap(TaskAck::task,
                        ack -> new CheckpointDetail.TaskAckState(ack.task(), null, true, null, ack.sizeBytes(),
                                ack.syncMillis(), ack.asyncMillis()), (first, second) -> first))))
                .orElse(detail);
    }

    /** 404 {@code CHECKPOINT_NOT_FOUND} with the topology and checkpoint id as members. */
    private static ResponseStatusException checkpointNotFound(TopologyId topology, long checkpointId) {
        ResponseStatusException notFound = new ResponseStatusException(HttpStatus.NOT_FOUND, "Topology '" + topology
                + "' has no checkpoint " + checkpointId + " in the checkpoint store: not taken yet, or no longer kept"
                + " (the store keeps the latest few); see GET /api/v1/topologies/" + topology + "/checkpoints");
        notFound.getBody().setTitle("Checkpoint not found");
        notFound.getBody().setProperty(ProblemType.REASON, "CHECKPOINT_NOT_FOUND");
        notFound.getBody().setProperty(ProblemType.TOPOLOGY, topology.value());
        notFound.getBody().setProperty(ProblemType.CHECKPOINT_ID, checkpointId);
        return notFound;
    }

    @PostMapping
    @ApiResponse(responseCode = "202", description = "The checkpoint is triggered")
    ResponseEntity<CheckpointTriggered> trigger(@PathVariable String id) {
        TopologyId topology = deployed(id);
        TriggerResult result = coordinators.triggerNow(topology);
        if (result instanceof TriggerResult.Refused refused) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "No checkpoint of topology '" + id
                    + "' was triggered. " + refused.reason());
        }
        return ResponseEntity.accepted().body(new CheckpointTriggered(
                CheckpointId.of(((TriggerResult.Triggered) result).checkpointId())));
    }

    @PostMapping("/{checkpointId}/acks")
    @ApiResponse(responseCode = "202", description = "Acknowledgement taken")
    ResponseEntity<Void> ack(@PathVariable String id, @PathVariable long checkpointId, @Valid @RequestBody CheckpointAck ack) {
        TopologyId topology = deployed(id);
        coordinators.acknowledge(topology, checkpointId, new TaskAck(ack.task(), ack.host(),
                incarnationOf(ack.incarnation()), ack.sizeBytes(), ack.syncMillis(), ack.asyncMillis()));
        return ResponseEntity.accepted().build();
    }

    /** The acks of several tasks of one host, sent at once (what a host's tasks snapshot at one barrier). */
    @PostMapping("/{checkpointId}/acks/batch")
    @ApiResponse(responseCode = "202", description = "Acknowledgements taken")
    ResponseEntity<Void> ackBatch(@PathVariable String id, @PathVariable long checkpointId,
                                  @Valid @RequestBody CheckpointAckBatch batch) {
        TopologyId topology = deployed(id);
        HostId host = batch.host();
        batch.acks().forEach(ack -> coordinators.acknowledge(topology, checkpointId, new TaskAck(
                ack.task(), host, incarnationOf(ack.incarnation()), ack.sizeBytes(), ack.syncMillis(),
                ack.asyncMillis())));
        return ResponseEntity.accepted().build();
    }

    @PostMapping("/{checkpointId}/nacks")
    @ApiResponse(responseCode = "202", description = "Refusal taken")
    ResponseEntity<Void> nack(@PathVariable String id, @PathVariable long checkpointId, @Valid @RequestBody CheckpointNack nack) {
        TopologyId topology = deployed(id);
        coordinators.decline(topology, checkpointId, nack.task(), nack.host(),
                incarnationOf(nack.incarnation()), nack.reason());
        return ResponseEntity.accepted().build();
    }

    /** A host that predates incarnations does not send one: its tasks run as their first incarnation. */
    private static int incarnationOf(@Nullable Integer incarnation) {
        return incarnation == null ? 0 : incarnation;
    }

    private TopologyId deployed(String id) {
        return deployedTopology(id).id();
    }

    private DeployedTopology deployedTopology(String id) {
        return (TopologyId.isValid(id) ? topologies.find(TopologyId.of(id)) : Optional.<DeployedTopology>empty())
                .orElseThrow(() -> new TopologyException(TopologyException.Reason.NOT_FOUND, "Topology '" + id
                        + "' is not deployed; see GET /api/v1/topologies"));
    }

    /** How the topology is checkpointed now, with the settings in force in milliseconds. */
    private static TopologyCheckpoints.Checkpointing checkpointingOf(CheckpointingStatus status) {
        return new TopologyCheckpoints.Checkpointing(status.state().name(), status.reason(),
                status.settings().interval().toMillis(), status.settings().timeout().toMillis(),
                status.settings().maxConcurrent(), status.skipped(), status.unrecordedFailures());
    }
}
