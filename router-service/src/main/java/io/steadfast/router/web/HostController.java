package io.steadfast.router.web;

import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.problem.ProblemType;
import io.steadfast.protocol.registration.Heartbeat;
import io.steadfast.protocol.registration.Registered;
import io.steadfast.protocol.registration.Registration;
import io.steadfast.protocol.registration.Suspicion;
import io.steadfast.router.config.RouterProperties;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostAdmission;
import io.steadfast.router.failure.SuspicionChecker;
import io.steadfast.router.host.HostAssignments;
import io.steadfast.router.host.HostRegistry;
import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Host registration, heartbeats and the host list. */
@RestController
@Tag(name = RouterApiDocs.HOSTS)
@RequestMapping("/api/v1/hosts")
class HostController {

    private final HostRegistry hosts;
    private final HostAdmission admission;
    private final HeartbeatFailureDetector failureDetector;
    private final HostAssignments assignments;
    private final SuspicionChecker suspicions;
    private final RouterProperties properties;

    HostController(HostRegistry hosts, HostAdmission admission, HeartbeatFailureDetector failureDetector,
                   HostAssignments assignments, SuspicionChecker suspicions, RouterProperties properties) {
        this.hosts = hosts;
        this.admission = admission;
        this.failureDetector = failureDetector;
        this.assignments = assignments;
        this.suspicions = suspicions;
        this.properties = properties;
    }

    /**
     * Registers a host (see {@link HostAdmission}): 200 with the heartbeat interval and the lease it holds; 410 if the
     * session it names was declared DEAD (it must stop its tasks and register with a new one); 409 while the tasks of
     * its earlier session are being recovered (register again shortly).
     */
    @PostMapping
    @ApiResponse(responseCode = "200", description = "Registered: the heartbeat interval and the lease the host holds",
            content = @Content(schema = @Schema(implementation = Registered.class)))
    ResponseEntity<?> register(@Valid @RequestBody Registration registration) {
        HostAdmission.Verdict verdict = admission.register(registration.hostId(), registration.kind(),
                registration.controlUrl(), registration.dataEndpoint(), registration.session(),
                registration.instance());
        if (verdict instanceof HostAdmission.Admitted admitted) {
            return ResponseEntity.ok(new Registered(admitted.host().id(),
                    properties.suggestedHeartbeatInterval().toString(), properties.hostLease().toString()));
        }
        return refused(registration.hostId().value(), verdict);
    }

    /**
     * Records a heartbeat and answers with what the host should run ({@link HostAssignment}), against which it
     * cancels stale tasks; 204 without a body when the stored topologies cannot be read; 404 if the host is not
     * registered (register first); 410 if its session is over (see {@link HostAdmission}).
     */
    @PutMapping("/{hostId}/heartbeat")
    @ApiResponse(responseCode = "200", description = "What the host should run",
            content = @Content(schema = @Schema(implementation = HostAssignment.class)))
    @ApiResponse(responseCode = "204", description = "Heartbeat recorded; the stored topologies cannot be read now")
    ResponseEntity<?> heartbeat(@PathVariable String hostId, @RequestBody Heartbeat heartbeat) {
        List<TaskReport> tasks = heartbeat.tasks() == null ? List.of() : heartbeat.tasks();
        HostId id = new HostId(hostId);
        HostAdmission.Verdict verdict = admission.heartbeat(id, heartbeat.session(), tasks);
        if (!(verdict instanceof HostAdmission.Admitted)) {
            return refused(hostId, verdict);
        }
        List<HostDeployment> running = heartbeat.deployments() == null ? List.of() : heartbeat.deployments();
        return assignments.assignmentOf(id, running).<ResponseEntity<?>>map(ResponseEntity::ok)
                .orElseGet(() -> ResponseEntity.noContent().build());
    }

    private static ResponseEntity<ProblemDetail> refused(String hostId, HostAdmission.Verdict verdict) {
        ProblemDetail problem;
        if (verdict instanceof HostAdmission.Fenced fenced) {
            problem = problem(HttpStatus.GONE, "Host session fenced", "HOST_FENCED", fenced.reason());
        } else if (verdict instanceof HostAdmission.RejoinPending pending) {
            problem = problem(HttpStatus.CONFLICT, "Rejoin pending", "REJOIN_PENDING", pending.reason());
        } else {
            problem = problem(HttpStatus.NOT_FOUND, "Host not registered", "HOST_NOT_REGISTERED", "Host '" + hostId
                    + "' is not registered; POST /api/v1/hosts first");
        }
        problem.setProperty(ProblemType.HOST, hostId);
        return ResponseEntity.status(problem.getStatus()).body(problem);
    }

    private static ProblemDetail problem(HttpStatus status, String title, String reason, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(title);
        problem.setProperty(ProblemType.REASON, reason);
        return problem;
    }

    /**
     * A host reports that its data-plane connection to host {@code hostId} dropped: the router checks that host
     * at once, asynchronously (see {@link SuspicionChecker}); 202 Accepted, or 404 if either host is unknown.
     */
    @PostMapping("/{hostId}/suspicions")
    @ApiResponse(responseCode = "202", description = "The router checks the suspected host")
    ResponseEntity<Void> suspect(@PathVariable String hostId, @Valid @RequestBody Suspicion suspicion) {
        HostId suspect = new HostId(hostId);
        for (HostId known : List.of(suspect, suspicion.reporter())) {
            if (hosts.find(known).isEmpty()) {
                throw new ResponseStatusException(HttpStatus.NOT_FOUND, "Host '" + known + "' is not registered;"
                        + " see GET /api/v1/hosts");
            }
        }
        suspicions.suspect(suspect, suspicion.reporter());
        return ResponseEntity.accepted().build();
    }

    @GetMapping
    @Operation(operationId = "listHosts")
    List<HostView> list() {
        return hosts.all().stream().map(host -> new HostView(host.id(), host.kind(), host.controlUrl(),
                host.dataEndpoint(), failureDetector.statusOf(host).name(), host.lastHeartbeat(), host.tasks())).toList();
    }
}
