package io.steadfast.router.web;

import io.steadfast.router.checkpoint.CheckpointRecordsException;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.store.RecordsNotLoadedException;
import io.steadfast.router.topology.TopologyException;
import io.steadfast.runtime.topology.TopologyValidationException;
import io.steadfast.runtime.topology.Violation;
import jakarta.validation.ConstraintViolationException;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Turns the router's exceptions into RFC 9457 problem details ({@code application/problem+json}). */
@RestControllerAdvice
class RouterProblemHandler extends ResponseEntityExceptionHandler {

    private static final String CHECKPOINT_SERVICE = "checkpoint-service";
    private static final int RETRY_AFTER_SECONDS = 5;

    /** 400 with an {@code errors} array: one {operator, field, message} per violation. */
    @ExceptionHandler
    ProblemDetail invalidTopology(TopologyValidationException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Invalid topology");
        if (e.topology() != null) {
            problem.setProperty("topology", e.topology());
        }
        List<Error> errors = e.violations().stream().map(Error::of).toList();
        problem.setProperty("errors", errors);
        return problem;
    }

    /**
     * The status by reason; a host that refused a deployment makes it 409 (the request conflicts with what the hosts
     * run or may run), with the host's id, status and problem detail as {@code host}, {@code hostStatus} and
     * {@code hostProblem}.
     */
    @ExceptionHandler
    ProblemDetail topologyFailed(TopologyException e) {
        HttpStatus status = switch (e.reason()) {
            case ALREADY_DEPLOYED, HOST_REFUSED -> HttpStatus.CONFLICT;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case NO_LIVE_HOST -> HttpStatus.SERVICE_UNAVAILABLE;
            case HOST_FAILED -> HttpStatus.BAD_GATEWAY;
            case TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
        };
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        problem.setProperty("reason", e.reason().name());
        if (e.getCause() instanceof HostCallException host) {
            problem.setProperty("host", host.host().value());
            host.status().ifPresent(hostStatus -> problem.setProperty("hostStatus", hostStatus));
            host.problem().ifPresent(hostProblem -> problem.setProperty("hostProblem", hostProblem));
        }
        return problem;
    }

    /** 503 with Retry-After: the router's records are not loaded from its store yet. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> recordsNotLoaded(RecordsNotLoadedException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        problem.setTitle("Records not loaded");
        problem.setProperty("reason", "RECORDS_NOT_LOADED");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, e.retryInterval().toSeconds())))
                .body(problem);
    }

    /**
     * 503 with {@code Retry-After} when the checkpoint-service cannot be reached (processing is not affected: only
     * the checkpoint records are out of reach); 502 when it refused the call.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> checkpointStoreFailed(CheckpointRecordsException e) {
        if (!e.isUnavailable()) {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, e.getMessage());
            problem.setTitle("Checkpoint store refused the request");
            problem.setProperty("service", CHECKPOINT_SERVICE);
            problem.setProperty("reason", e.reason().name());
            return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(problem);
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "The "
                + CHECKPOINT_SERVICE + ", which keeps the checkpoint records, is unavailable: " + e.getMessage()
                + ". Processing goes on; checkpoints that fail meanwhile are kept by the router and recorded once"
                + " the " + CHECKPOINT_SERVICE + " is back. Retry in a few seconds.");
        problem.setTitle("Checkpoint store unavailable");
        problem.setProperty("service", CHECKPOINT_SERVICE);
        problem.setProperty("reason", e.reason().name());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER_SECONDS)).body(problem);
    }

    /** 400 naming each field of the request body that is wrong ({@code errors}, and in the detail). */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        List<Error> errors = e.getBindingResult().getFieldErrors().stream()
                .map(error -> new Error(null, error.getField(), error.getDefaultMessage())).toList();
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The request body is"
                + " invalid: " + errors.stream().map(error -> error.field() + " " + error.message())
                .collect(Collectors.joining("; ")) + ". Correct these fields and send it again");
        problem.setTitle("Invalid request body");
        problem.setProperty("errors", errors);
        return handleExceptionInternal(e, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @ExceptionHandler({IllegalArgumentException.class, ConstraintViolationException.class})
    ProblemDetail badRequest(RuntimeException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /**
     * One violation.
     *
     * @param operator the operator at fault, or null for the topology as a whole (or a request that is no topology)
     * @param field the JSON path of the problem
     * @param message what is wrong and what to do
     */
    record Error(String operator, String field, String message) {

        static Error of(Violation violation) {
            return new Error(violation.operator(), violation.field(), violation.message());
        }
    }
}
