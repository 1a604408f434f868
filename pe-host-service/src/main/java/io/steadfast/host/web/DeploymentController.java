package io.steadfast.host.web;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.snapshot.SnapshotRestorer;
import io.steadfast.protocol.host.DeploymentRequest;
import io.steadfast.protocol.host.DeploymentResponse;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Starts (optionally restored from a checkpoint) and stops this host's share of a topology, and triggers checkpoints. */
@RestController
@RequestMapping("/api/v1/deployments")
@Tag(name = HostApiDocs.DEPLOYMENTS)
class DeploymentController {

    private final ProcessingNode node;
    private final SnapshotRestorer restorer;

    DeploymentController(ProcessingNode node, SnapshotRestorer restorer) {
        this.node = node;
        this.restorer = restorer;
    }

    @PostMapping
    @ApiResponse(responseCode = "201", description = "The tasks placed here started")
    ResponseEntity<DeploymentResponse> deploy(@Valid @RequestBody DeploymentRequest request) {
        TaskPlacement placement = request.placement().toTaskPlacement();
        node.requireRoomToDeploy(request.plan(), placement);
        Map<TaskId, OperatorSnapshot> restoreFrom = request.restore() == null ? Map.of()
                : restorer.fetch(request.plan(), placement, node.id(), request.restore().checkpointId().value());
        List<TaskId> started = node.deploy(request.plan(), placement, restoreFrom);
        TopologyId topology = request.plan().topology();
        return ResponseEntity.created(URI.create("/api/v1/deployments/" + topology))
                .body(new DeploymentResponse(topology, started));
    }

    @DeleteMapping("/{topologyId}")
    @ApiResponse(responseCode = "204", description = "Its tasks here stopped (or none ran here)")
    ResponseEntity<Void> cancel(@PathVariable String topologyId) {
        node.cancel(TopologyId.of(topologyId));
        return ResponseEntity.noContent().build();
    }

    /** Starts a checkpoint at this host's source tasks of the topology: 202, or 404 if it does not run here. */
    @PostMapping("/{topologyId}/checkpoints/{checkpointId}")
    @ApiResponse(responseCode = "202", description = "The sources here inject the barrier")
    ResponseEntity<Void> triggerCheckpoint(@PathVariable String topologyId, @PathVariable long checkpointId) {
        if (!TopologyId.isValid(topologyId) || !node.triggerCheckpoint(TopologyId.of(topologyId), checkpointId)) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "Topology '" + topologyId
                    + "' does not run on host " + node.id() + "; see GET /api/v1/tasks");
        }
        return ResponseEntity.accepted().build();
    }

}
