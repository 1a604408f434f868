package io.steadfast.dashboard.router;

/** A request from the dashboard to the router failed; {@link #reason()} says how. */
public class RouterRequestException extends RuntimeException {

    /** How a request to the router failed. */
    public enum Reason {
        /** No answer: connection refused, unknown host or timeout. */
        UNREACHABLE,
        /** The router answered with an HTTP error status. */
        ERROR_STATUS,
        /** The router answered 2xx with a body that is not what its API documents. */
        MALFORMED_ANSWER
    }

    private final Reason reason;
    private final int httpStatus;

    RouterRequestException(Reason reason, int httpStatus, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.httpStatus = httpStatus;
    }

    public Reason reason() {
        return reason;
    }

    /** The HTTP status of an {@link Reason#ERROR_STATUS} answer, else 0. */
    public int httpStatus() {
        return httpStatus;
    }
}
