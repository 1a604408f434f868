package io.steadfast.router.web;

import io.steadfast.protocol.problem.FieldError;
import io.steadfast.protocol.problem.ProblemType;
import io.steadfast.protocol.problem.web.UnreadableBody;
import org.springframework.http.converter.HttpMessageNotReadableException;
import io.steadfast.router.checkpoint.CheckpointRecordsException;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.store.RecordsNotLoadedException;
import io.steadfast.router.topology.TopologyException;
import io.steadfast.runtime.topology.TopologyValidationException;
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

    /** 400 with an {@code errors} array: one {field, operator, message} per violation. */
    @ExceptionHandler
    ProblemDetail invalidTopology(TopologyValidationException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Invalid topology");
        problem.setProperty(ProblemType.REASON, "INVALID_TOPOLOGY");
        if (e.topology() != null) {
            problem.setProperty(ProblemType.TOPOLOGY, e.topology());
        }
        problem.setProperty(ProblemType.ERRORS, e.violations().stream()
                .map(violation -> new FieldError(violation.field(), violation.operator(), violation.message()))
                .toList());
        return problem;
    }

    /**
     * The status by reason; a host that refused a deployment makes it 409 (the request conflicts with what the hosts
     * run or may run), with the host's id, status and problem detail as {@code host}, {@code hostStatus} and
     * {@code hostProblem}; so does a topology with vote tasks while no voter host is LIVE (the cluster lacks a kind of
     * host the topology needs, which someone must start: not a transient outage).
     */
    @ExceptionHandler
    ProblemDetail topologyFailed(TopologyException e) {
        HttpStatus status = switch (e.reason()) {
            case ALREADY_DEPLOYED, HOST_REFUSED, NO_LIVE_VOTER -> HttpStatus.CONFLICT;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case NO_LIVE_HOST -> HttpStatus.SERVICE_UNAVAILABLE;
            case HOST_FAILED -> HttpStatus.BAD_GATEWAY;
            case TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
        };
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        problem.setProperty(ProblemType.REASON, e.reason().name());
        if (e.getCause() instanceof HostCallException host) {
            problem.setProperty(ProblemType.HOST, host.host().value());
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
        problem.setProperty(ProblemType.REASON, "RECORDS_NOT_LOADED");
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
            problem.setProperty(ProblemType.REASON, e.reason().name());
            return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(problem);
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "The "
                + CHECKPOINT_SERVICE + ", which keeps the checkpoint records, is unavailable: " + e.getMessage()
                + ". Processing goes on; checkpoints that fail meanwhile are kept by the router and recorded once"
                + " the " + CHECKPOINT_SERVICE + " is back. Retry in a few seconds.");
        problem.setTitle("Checkpoint store unavailable");
        problem.setProperty("service", CHECKPOINT_SERVICE);
        problem.setProperty(ProblemType.REASON, e.reason().name());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER_SECONDS)).body(problem);
    }

    /** 400 naming each field of the request body that is wrong ({@code errors}, and in the detail). */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        return handleExceptionInternal(e, invalidBody(e.getBindingResult().getFieldErrors().stream()
                .map(error -> FieldError.of(error.getField(), error.getDefaultMessage())).toList()), headers,
                HttpStatus.BAD_REQUEST, request);
    }

    /**
     * 400 naming the field of the request body that could not be read, such as a malformed id, in the same shape as
     * a field that is invalid (Spring's default says only "Failed to read request").
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        return handleExceptionInternal(e, invalidBody(List.of(UnreadableBody.of(e).asFieldError())), headers,
                HttpStatus.BAD_REQUEST, request);
    }

    private static ProblemDetail invalidBody(List<FieldError> errors) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The request body is"
                + " invalid: " + errors.stream().map(error -> error.field() + " " + error.message())
                .collect(Collectors.joining("; ")) + ". Correct these fields and send it again");
        problem.setTitle("Invalid request body");
        problem.setProperty(ProblemType.REASON, "INVALID_REQUEST_BODY");
        problem.setProperty(ProblemType.ERRORS, errors);
        return problem;
    }

    @ExceptionHandler({IllegalArgumentException.class, ConstraintViolationException.class})
    ProblemDetail badRequest(RuntimeException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }
}
