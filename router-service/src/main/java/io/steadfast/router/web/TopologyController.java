package io.steadfast.router.web;

import io.steadfast.protocol.host.KeyValue;
import io.steadfast.protocol.router.OperatorResults;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologySubmitted;
import io.steadfast.protocol.router.TopologySubmitted.PlacedTask;
import io.steadfast.protocol.router.TopologyModel;
import io.steadfast.protocol.router.TopologySummary;
import io.steadfast.protocol.router.TopologyVotes;
import io.steadfast.router.model.ModelViews;
import io.steadfast.router.model.TopologyModels;
import io.steadfast.router.placement.PlacementWarnings;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.ResultReader;
import io.steadfast.router.topology.TopologyDeployer;
import io.steadfast.router.topology.TopologyException;
import io.steadfast.router.topology.TopologyMonitor;
import io.steadfast.router.topology.VoteReader;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpec;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.constraints.Min;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Submits, lists, inspects and cancels topologies, and reads their results and votes. */
@RestController
@Tag(name = RouterApiDocs.TOPOLOGIES)
@Validated
@RequestMapping("/api/v1/topologies")
class TopologyController {

    private final TopologyDeployer deployer;
    private final TopologyMonitor monitor;
    private final ResultReader results;
    private final VoteReader votes;
    private final TopologyModels models;
    private final Clock clock;

    TopologyController(TopologyDeployer deployer, TopologyMonitor monitor, ResultReader results, VoteReader votes,
                       TopologyModels models, Clock clock) {
        this.deployer = deployer;
        this.monitor = monitor;
        this.results = results;
        this.votes = votes;
        this.models = models;
        this.clock = clock;
    }

    /** The body is read here, not bound, so that size is checked before parsing and JSON errors name the path. */
    @PostMapping
    @Operation(requestBody = @RequestBody(required = true, description = "The topology spec (JSON)",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = TopologySpec.class))))
    @ApiResponse(responseCode = "201", description = "Deployed: where each task runs, and placement warnings")
    ResponseEntity<TopologySubmitted> submit(HttpServletRequest request) throws IOException {
        int limit = deployer.maxSpecBytes();
        if (request.getContentLengthLong() > limit) {
            throw new TopologyException(TopologyException.Reason.TOO_LARGE, "The topology spec is "
                    + request.getContentLengthLong() + " bytes, over the limit of " + limit
                    + " bytes; make it smaller or raise steadfast.router.limits.max-spec-bytes");
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readNBytes(limit + 1);
        }
        DeployedTopology topology = deployer.submit(body);
        List<PlacedTask> tasks = topology.plan().tasks().stream()
                .map(task -> new PlacedTask(task.id(), topology.placement().get(task.id()))).toList();
        return ResponseEntity.created(URI.create("/api/v1/topologies/" + topology.id()))
                .body(new TopologySubmitted(topology.id(), TopologySubmitted.RUNNING, tasks,
                        PlacementWarnings.of(topology.plan(), topology.placement())));
    }

    @GetMapping
    @Operation(operationId = "listTopologies")
    List<TopologySummary> list() {
        return monitor.list();
    }

    @GetMapping("/{id}")
    TopologyDetail detail(@PathVariable String id) {
        return monitor.detail(topologyId(id));
    }

    /** What the versions of the topology's N-version operators did: agreed, outvoted, late, failed, excluded. */
    @GetMapping("/{id}/votes")
    TopologyVotes votes(@PathVariable String id) {
        return votes.read(topologyId(id));
    }

    /**
     * What the delay model predicts for the topology from its tasks' latest measurements: each task's queueing delay,
     * the end-to-end delay, and the recovery after losing each host in either mode, with the inputs used.
     */
    @GetMapping("/{id}/model")
    TopologyModel model(@PathVariable String id) {
        TopologyId topology = topologyId(id);
        return models.report(topology).map(report -> ModelViews.of(topology, clock.instant(), report))
                .orElseThrow(() -> new TopologyException(TopologyException.Reason.NOT_FOUND, "Topology '" + id
                        + "' is not deployed; see GET /api/v1/topologies"));
    }

    /** The topology's execution plan: its tasks, channels and epoch. */
    @GetMapping("/{id}/plan")
    ExecutionPlan plan(@PathVariable String id) {
        return monitor.plan(topologyId(id));
    }

    @DeleteMapping("/{id}")
    @ApiResponse(responseCode = "204", description = "Cancelled")
    ResponseEntity<Void> cancel(@PathVariable String id) {
        deployer.cancel(topologyId(id));
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{id}/results/{operatorId}")
    Object results(@PathVariable String id, @PathVariable String operatorId,
                   @RequestParam(required = false) String key,
                   @RequestParam(defaultValue = "10000") @Min(1) int limit,
                   @RequestParam(defaultValue = "latest") String state) {
        TopologyId topology = topologyId(id);
        OperatorId operator = OperatorId.isValid(operatorId) ? OperatorId.of(operatorId) : null;
        if (operator == null) {
            throw new TopologyException(TopologyException.Reason.NOT_FOUND, "Operator id '" + operatorId
                    + "' is invalid, so topology '" + id + "' has no such operator");
        }
        if (key != null) {
            return new KeyValue(key, results.readKey(topology, operator, state, key));
        }
        return new OperatorResults(topology, operator, results.readAll(topology, operator, state, limit));
    }

    /** An id that cannot be a topology id names no deployed topology: 404, not 400. */
    private static TopologyId topologyId(String id) {
        if (!TopologyId.isValid(id)) {
            throw new TopologyException(TopologyException.Reason.NOT_FOUND, "Topology '" + id + "' is not deployed"
                    + " (and is not a valid topology id); see GET /api/v1/topologies");
        }
        return TopologyId.of(id);
    }
}
