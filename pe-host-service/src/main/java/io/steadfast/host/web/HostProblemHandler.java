package io.steadfast.host.web;

import io.steadfast.host.execution.DeploymentRejectedException;
import io.steadfast.host.execution.StateQueryException;
import io.steadfast.host.snapshot.SnapshotUnavailableException;
import io.steadfast.protocol.problem.FieldError;
import io.steadfast.protocol.problem.ProblemType;
import io.steadfast.protocol.problem.web.UnreadableBody;
import jakarta.validation.ConstraintViolationException;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import io.steadfast.protocol.router.RouterHeaders;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Turns this host's exceptions into RFC 9457 problem details. */
@RestControllerAdvice
class HostProblemHandler extends ResponseEntityExceptionHandler {

    /**
     * 409 when the topology already runs here or would take this host beyond its limits (the request conflicts with
     * what the host runs), 400 when a task cannot run here; {@code reason} says which, {@code errors} names the
     * field at fault of each operator whose tasks cannot run (its {@code type}, {@code config.<name>}), or for the
     * limits each count ({@code tasks}, {@code channels}) with the numbers and the limit.
     */
    @ExceptionHandler
    ProblemDetail deploymentRejected(DeploymentRejectedException e) {
        HttpStatus status = switch (e.reason()) {
            case ALREADY_DEPLOYED, OVER_CAPACITY -> HttpStatus.CONFLICT;
            case INVALID_TASKS -> HttpStatus.BAD_REQUEST;
        };
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        problem.setTitle(switch (e.reason()) {
            case ALREADY_DEPLOYED -> "Topology already deployed";
            case OVER_CAPACITY -> "Host at capacity";
            case INVALID_TASKS -> "Deployment rejected";
        });
        problem.setProperty(ProblemType.REASON, e.reason().name());
        problem.setProperty(ProblemType.TOPOLOGY, e.topology().value());
        problem.setProperty(ProblemType.ERRORS, e.problems());
        return problem;
    }

    /** 502 when the store lacks a snapshot, 503 when it cannot be reached; names the task and checkpoint. */
    @ExceptionHandler
    ProblemDetail snapshotUnavailable(SnapshotUnavailableException e) {
        HttpStatus status = e.reason() == SnapshotUnavailableException.Reason.MISSING ? HttpStatus.BAD_GATEWAY
                : HttpStatus.SERVICE_UNAVAILABLE;
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        problem.setTitle("Snapshot unavailable");
        problem.setProperty(ProblemType.TASK, e.task().toString());
        problem.setProperty(ProblemType.CHECKPOINT_ID, e.checkpointId());
        problem.setProperty(ProblemType.REASON, e.reason().name());
        return problem;
    }

    /** 409 naming the topology and epoch: the caller resends the recovery request with the plan. */
    @ExceptionHandler
    ProblemDetail planNotHeld(PlanNotHeldException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Plan not held");
        problem.setProperty(ProblemType.TOPOLOGY, e.topology().value());
        problem.setProperty("epoch", e.epoch());
        problem.setProperty(ProblemType.REASON, PlanNotHeldException.REASON);
        return problem;
    }

    /** 409 naming the task and the superseded incarnation that asked for its decisions. */
    @ExceptionHandler
    ProblemDetail supersededIncarnation(SupersededIncarnationException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Superseded incarnation");
        problem.setProperty(ProblemType.TASK, e.task().toString());
        problem.setProperty("incarnation", e.incarnation());
        problem.setProperty(ProblemType.REASON, SupersededIncarnationException.REASON);
        return problem;
    }

    /** 409: the call came from a deposed router. */
    @ExceptionHandler
    ProblemDetail staleRouter(StaleRouterCallException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Deposed router");
        problem.setProperty("epoch", e.epoch());
        problem.setProperty("highestEpoch", e.highest());
        problem.setProperty(ProblemType.REASON, RouterHeaders.STALE_ROUTER);
        return problem;
    }

    @ExceptionHandler
    ProblemDetail stateQueryFailed(StateQueryException e) {
        HttpStatus status = switch (e.reason()) {
            case TASK_NOT_FOUND, KEY_NOT_FOUND -> HttpStatus.NOT_FOUND;
            case NOT_QUERYABLE -> HttpStatus.BAD_REQUEST;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        problem.setProperty(ProblemType.REASON, e.reason().name());
        return problem;
    }

    @ExceptionHandler({IllegalArgumentException.class, ConstraintViolationException.class})
    ProblemDetail badRequest(RuntimeException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /**
     * 400 naming where in the body it could not be read and why (Spring's default says only "Failed to read
     * request"): a field of the wrong type, or a value its type refuses, such as a decision span ending before it
     * starts.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        UnreadableBody unreadable = UnreadableBody.of(e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "Unreadable request body"
                + (unreadable.namesField() ? " at " + unreadable.field() : "") + ": " + unreadable.reason());
        if (unreadable.namesField()) {
            problem.setProperty("field", unreadable.field());
            problem.setProperty(ProblemType.ERRORS, List.of(unreadable.asFieldError()));
        }
        problem.setProperty(ProblemType.REASON, "UNREADABLE_BODY");
        return handleExceptionInternal(e, problem, headers, status, request);
    }

    /** 400 naming each field of the request body that is missing or out of range, and what it must be. */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        List<FieldError> errors = e.getBindingResult().getFieldErrors().stream()
                .map(error -> FieldError.of(error.getField(), error.getDefaultMessage()))
                .sorted(Comparator.comparing(FieldError::field)).toList();
        ProblemDetail problem = e.getBody();
        problem.setDetail("Invalid request body: " + errors.stream().map(error -> error.field() + ": "
                + error.message()).collect(Collectors.joining("; ")));
        problem.setProperty(ProblemType.REASON, "INVALID_REQUEST_BODY");
        problem.setProperty(ProblemType.ERRORS, errors);
        return handleExceptionInternal(e, problem, headers, status, request);
    }
}
