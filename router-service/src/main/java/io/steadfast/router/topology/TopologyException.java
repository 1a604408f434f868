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
        /** The topology has vote tasks (N-version operators) and no voter host is LIVE to run them. */
        NO_LIVE_VOTER,
        /** A host failed a call: no answer, a timeout, or a server error. */
        HOST_FAILED,
        /**
         * A host answered that it will not do what was asked (a 4xx status), e.g. a deployment beyond what it may
         * run; the cause is the {@link io.steadfast.router.host.HostCallException} with the host's problem detail.
         */
        HOST_REFUSED,
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
