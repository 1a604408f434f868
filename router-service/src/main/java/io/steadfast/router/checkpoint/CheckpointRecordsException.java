package io.steadfast.router.checkpoint;

/**
 * A call to the checkpoint records store failed, for a {@link Reason}: callers retry an {@code UNAVAILABLE}
 * store later and answer 503 for it; the other reasons are the store's verdict on the call.
 */
public class CheckpointRecordsException extends RuntimeException {

    /** Why the call failed. */
    public enum Reason {
        /** The store did not answer (connection refused, timeout) or answered that it cannot serve now (5xx). */
        UNAVAILABLE,
        /** The store has no such checkpoint. */
        NOT_FOUND,
        /** The call conflicts with the record's state (it exists, is already COMPLETED or FAILED, lacks acks). */
        CONFLICT,
        /** The store refused the call as invalid, or its answer could not be read. */
        REJECTED
    }

    private final Reason reason;

    public CheckpointRecordsException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** Whether the store could not be reached: the call may succeed once it is back. */
    public boolean isUnavailable() {
        return reason == Reason.UNAVAILABLE;
    }

    /** Whether {@code e} says the store could not be reached. */
    public static boolean isUnavailable(RuntimeException e) {
        return e instanceof CheckpointRecordsException records && records.isUnavailable();
    }
}
