package io.steadfast.checkpoint.web;

import io.steadfast.protocol.problem.ProblemType;
import io.steadfast.protocol.problem.web.UnreadableBody;
import io.steadfast.checkpoint.checkpoint.CheckpointRejectedException;
import io.steadfast.checkpoint.snapshot.SnapshotBatchFormatException;
import io.steadfast.checkpoint.snapshot.SnapshotNotFoundException;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.replaylog.ReplayLogEntryTooLargeException;
import io.steadfast.runtime.replaylog.ReplayLogFormatException;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.replaylog.ReplayLogSupersededException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Turns this service's exceptions into RFC 9457 problem details that name the id or field and what to do. */
@RestControllerAdvice
class CheckpointProblemHandler extends ResponseEntityExceptionHandler {

    @ExceptionHandler
    ProblemDetail checkpointRejected(CheckpointRejectedException e) {
        HttpStatus status = switch (e.reason()) {
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case UNEXPECTED_TASK -> HttpStatus.BAD_REQUEST;
            case ALREADY_EXISTS, NOT_PENDING, MISSING_ACKS, MISSING_SNAPSHOTS, SIZE_MISMATCH, SUPERSEDED_INCARNATION,
                    NEWER_INCARNATION -> HttpStatus.CONFLICT;
        };
        ProblemDetail problem = problem(status, e.reason().name(), e.getMessage());
        problem.setProperty(ProblemType.TOPOLOGY, e.topology().value());
        if (e.checkpointId() != null) {
            problem.setProperty(ProblemType.CHECKPOINT_ID, e.checkpointId().value());
        }
        if (!e.tasks().isEmpty()) {
            problem.setProperty("tasks", e.tasks().stream().map(TaskId::toString).toList());
        }
        return problem;
    }

    @ExceptionHandler
    ProblemDetail snapshotNotFound(SnapshotNotFoundException e) {
        ProblemDetail problem = problem(HttpStatus.NOT_FOUND, "SNAPSHOT_NOT_FOUND", e.getMessage());
        problem.setProperty(ProblemType.TOPOLOGY, e.key().topology().value());
        problem.setProperty(ProblemType.CHECKPOINT_ID, e.key().checkpointId().value());
        problem.setProperty(ProblemType.TASK, e.key().task().toString());
        return problem;
    }

    @ExceptionHandler
    ProblemDetail invalidRequest(InvalidRequestException e) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "INVALID_REQUEST", e.getMessage());
        problem.setProperty("field", e.field());
        if (e.value() != null) {
            problem.setProperty("value", e.value());
        }
        return problem;
    }

    @ExceptionHandler
    ProblemDetail batchFailed(BatchUploadException e) {
        Throwable cause = e.getCause();
        ProblemDetail problem;
        if (cause instanceof InvalidRequestException invalid) {
            problem = invalidRequest(invalid);
        } else if (cause instanceof CheckpointRejectedException rejected) {
            problem = checkpointRejected(rejected);
        } else if (cause instanceof SnapshotBatchFormatException format) {
            problem = problem(HttpStatus.BAD_REQUEST, "INVALID_BATCH", format.getMessage() + ". " + BATCH_FORMAT);
        } else {
            problem = problem(HttpStatus.INTERNAL_SERVER_ERROR, "BATCH_FAILED", "Storing entry " + e.entry()
                    + " of the batch failed: " + e.getMessage());
        }
        problem.setProperty("entry", e.entry());
        problem.setProperty("stored", e.stored().stream().map(snapshot -> snapshot.task().toString()).toList());
        return problem;
    }

    @ExceptionHandler
    ProblemDetail replayLogGap(ReplayLogGapException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, "REPLAY_LOG_GAP", e.getMessage());
        problem.setProperty(ProblemType.TOPOLOGY, e.channel().topology().value());
        problem.setProperty("channel", e.channel().toString());
        problem.setProperty("after", e.after());
        problem.setProperty("missingFrom", e.missingFrom());
        problem.setProperty("missingTo", e.missingTo());
        return problem;
    }

    @ExceptionHandler
    ProblemDetail replayLogSuperseded(ReplayLogSupersededException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, "SUPERSEDED_INCARNATION", e.getMessage());
        problem.setProperty(ProblemType.TOPOLOGY, e.channel().topology().value());
        problem.setProperty("channel", e.channel().toString());
        problem.setProperty("incarnation", e.incarnation());
        problem.setProperty("minimumIncarnation", e.minimum());
        return problem;
    }

    @ExceptionHandler
    ProblemDetail invalidReplayLogBatch(ReplayLogFormatException e) {
        ProblemDetail problem = e instanceof ReplayLogEntryTooLargeException
                ? problem(HttpStatus.CONTENT_TOO_LARGE, "REPLAY_LOG_SEGMENT_TOO_LARGE", e.getMessage()
                        + " (steadfast.checkpoint.replay-logs.max-segment-size)")
                : problem(HttpStatus.BAD_REQUEST, "INVALID_REPLAY_LOG_BATCH", e.getMessage() + ". "
                        + REPLAY_LOG_FORMAT);
        problem.setProperty("field", e.field());
        if (e.entry() >= 0) {
            problem.setProperty("entry", e.entry());
        }
        return problem;
    }

    @ExceptionHandler
    ProblemDetail contentTooLarge(ContentTooLargeException e) {
        ProblemDetail problem = problem(HttpStatus.CONTENT_TOO_LARGE, "CONTENT_TOO_LARGE", e.getMessage());
        problem.setProperty("field", e.field());
        return problem;
    }

    @ExceptionHandler
    ProblemDetail badRequest(IllegalArgumentException e) {
        return problem(HttpStatus.BAD_REQUEST, "INVALID_REQUEST", e.getMessage());
    }

    /**
     * A field Jackson could not read, such as a malformed id, as any invalid field: the field and why, in the words
     * of its type (Spring's default detail, "Failed to read request", says neither); a body that is no JSON, as such.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        UnreadableBody unreadable = UnreadableBody.of(ex);
        ProblemDetail problem = unreadable.namesField()
                ? invalidRequest(new InvalidRequestException(unreadable.field(), null, unreadable.field()
                        + " is unreadable: " + unreadable.reason()))
                : problem(HttpStatus.BAD_REQUEST, "UNREADABLE_BODY", "The request body is not the JSON this"
                        + " endpoint expects: " + unreadable.reason());
        return handleExceptionInternal(ex, problem, headers, status, request);
    }

    private static final String BATCH_FORMAT = "A batch body is, big-endian, the optional int32 header 0x53465332"
            + " and then, per snapshot: int32 taskIdLength, the UTF-8 task id, int32 incarnation (only after the"
            + " header), int64 snapshot length, the snapshot bytes";

    private static final String REPLAY_LOG_FORMAT = "A replay-log batch is the int32 header 0x53464C32 and then,"
            + " big-endian, per segment: uint16 channelLength, the UTF-8 channel id (topology~index@epoch), int32"
            + " incarnation of the sending task, int64 firstSeq, int64 lastSeq, int64 checkpoint (-1 for none), int32"
            + " length, the frame bytes (with the header 0x53464C31, the same without the incarnation)";

    /** A problem of {@code reason} (UPPER_SNAKE), its type derived from it as in every service. */
    private static ProblemDetail problem(HttpStatus status, String reason, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setProperty(ProblemType.REASON, reason);
        problem.setType(ProblemType.of(reason));
        return problem;
    }
}
