package io.steadfast.router.web;

import io.steadfast.protocol.checkpoint.CheckpointAck;
import io.steadfast.protocol.checkpoint.CheckpointAckBatch;
import io.steadfast.protocol.checkpoint.CheckpointNack;
import io.steadfast.protocol.router.CheckpointTriggered;
import io.steadfast.protocol.router.TopologyCheckpoints;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CheckpointRecordsException;
import io.steadfast.router.checkpoint.CheckpointingStatus;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.checkpoint.TaskAck;
import io.steadfast.router.checkpoint.TriggerResult;
import io.steadfast.router.topology.TopologyException;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
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
        if (!TopologyId.isValid(id) || topologies.find(TopologyId.of(id)).isEmpty()) {
            throw new TopologyException(TopologyException.Reason.NOT_FOUND, "Topology '" + id + "' is not deployed;"
                    + " see GET /api/v1/topologies");
        }
        return TopologyId.of(id);
    }

    /** How the topology is checkpointed now, with the settings in force in milliseconds. */
    private static TopologyCheckpoints.Checkpointing checkpointingOf(CheckpointingStatus status) {
        return new TopologyCheckpoints.Checkpointing(status.state().name(), status.reason(),
                status.settings().interval().toMillis(), status.settings().timeout().toMillis(),
                status.settings().maxConcurrent(), status.skipped(), status.unrecordedFailures());
    }
}
