package io.steadfast.host.execution;

/** A state query cannot be answered; the {@link Reason} says why. */
public class StateQueryException extends RuntimeException {

    /** Why a state query failed. */
    public enum Reason {
        /** The task does not run on this host (never deployed here, or cancelled). */
        TASK_NOT_FOUND,
        /** The task has no value for the key in that state. */
        KEY_NOT_FOUND,
        /** The task has no keyed state, e.g. it is a source. */
        NOT_QUERYABLE,
        /** The task did not answer in time or failed while answering. */
        UNAVAILABLE
    }

    private final Reason reason;

    public StateQueryException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
