package io.steadfast.host.snapshot;

/** A call to the snapshot store failed: unreachable, timed out, refused, or its circuit breaker is open. */
public class SnapshotStoreException extends RuntimeException {

    public SnapshotStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
