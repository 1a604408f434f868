package io.steadfast.dashboard.web;

import io.steadfast.protocol.problem.FieldError;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * A request of the page that the dashboard refuses or could not carry out, answered as a problem detail whose
 * {@code reason} is {@link #reason()}. The message is the problem's {@code detail}: what failed, with the ids and
 * values seen, and what to do.
 */
public class DashboardRequestException extends RuntimeException {

    /** Why, and so the HTTP status and title of the problem. */
    public enum Reason {
        /** A path variable or query of the page's request is not valid; {@code errors} names it. */
        INVALID_REQUEST(HttpStatus.BAD_REQUEST, "Invalid request"),
        /** A request body larger than the dashboard passes on. */
        REQUEST_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "Request too large"),
        /** {@code steadfast.dashboard.fault-injection.enabled} is off. */
        FAULT_INJECTION_DISABLED(HttpStatus.FORBIDDEN, "Fault injection disabled"),
        /** The router lists no host of that id. */
        HOST_NOT_FOUND(HttpStatus.NOT_FOUND, "Host not found"),
        /** The host did not answer at its control URL. */
        HOST_UNREACHABLE(HttpStatus.BAD_GATEWAY, "Host unreachable"),
        /** The host answered 404: its own {@code steadfast.host.fault-injection.enabled} is off. */
        HOST_FAULT_INJECTION_DISABLED(HttpStatus.BAD_GATEWAY, "Fault injection disabled on the host"),
        /** The host answered with a status other than 202 or 404. */
        HOST_ERROR(HttpStatus.BAD_GATEWAY, "Host refused the request");

        private final HttpStatus status;
        private final String title;

        Reason(HttpStatus status, String title) {
            this.status = status;
            this.title = title;
        }

        public HttpStatus status() {
            return status;
        }

        public String title() {
            return title;
        }
    }

    private final Reason reason;
    private final List<FieldError> errors;

    public DashboardRequestException(Reason reason, String message) {
        this(reason, message, List.of(), null);
    }

    public DashboardRequestException(Reason reason, String message, @Nullable Throwable cause) {
        this(reason, message, List.of(), cause);
    }

    private DashboardRequestException(Reason reason, String message, List<FieldError> errors,
                                      @Nullable Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.errors = List.copyOf(errors);
    }

    /**
     * An {@link Reason#INVALID_REQUEST} naming one field, in the {@code errors} shape of the router's invalid
     * topologies, so that the page shows both alike.
     */
    public static DashboardRequestException invalid(String field, String message) {
        return new DashboardRequestException(Reason.INVALID_REQUEST, field + ": " + message,
                List.of(FieldError.of(field, message)), null);
    }

    public Reason reason() {
        return reason;
    }

    /** The fields at fault; empty unless the reason is {@link Reason#INVALID_REQUEST}. */
    public List<FieldError> errors() {
        return errors;
    }
}
