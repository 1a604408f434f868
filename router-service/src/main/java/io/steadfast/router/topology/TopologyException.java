package io.steadfast.router.topology;

/**
 * A topology request cannot be served; the {@link Reason} decides the HTTP status. Validation failures are
 * {@link io.steadfast.runtime.topology.TopologyValidationException} instead.
 */
public class TopologyException extends RuntimeException {

    /** Why a topology request failed. */
    public enum Reason {
        /** A topology with that id is deployed already. */
        ALREADY_DEPLOYED,
        /** No topology, operator or key of that name. */
        NOT_FOUND,
        /** There is no LIVE host to place tasks on. */
        NO_LIVE_HOST,
        /** A host refused or failed a call. */
        HOST_FAILED,
        /** The submitted document is larger than allowed. */
        TOO_LARGE
    }

    private final Reason reason;

    public TopologyException(Reason reason, String message) {
        this(reason, message, null);
    }

    public TopologyException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
