package io.steadfast.host.web;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Starts and stops this host's share of a topology, as the router asks. */
@RestController
@RequestMapping("/api/v1/deployments")
class DeploymentController {

    private final ProcessingNode node;

    DeploymentController(ProcessingNode node) {
        this.node = node;
    }

    @PostMapping
    ResponseEntity<DeploymentResponse> deploy(@Valid @RequestBody DeploymentRequest request) {
        List<TaskId> started = node.deploy(request.plan(), request.placement().toTaskPlacement());
        TopologyId topology = request.plan().topology();
        return ResponseEntity.created(URI.create("/api/v1/deployments/" + topology))
                .body(new DeploymentResponse(topology.value(), started.stream().map(TaskId::toString).toList()));
    }

    @DeleteMapping("/{topologyId}")
    ResponseEntity<Void> cancel(@PathVariable String topologyId) {
        node.cancel(TopologyId.of(topologyId));
        return ResponseEntity.noContent().build();
    }

    /**
     * Answer to a deployment.
     *
     * @param topology the topology id
     * @param tasks the tasks started on this host
     */
    record DeploymentResponse(String topology, List<String> tasks) {
    }
}
