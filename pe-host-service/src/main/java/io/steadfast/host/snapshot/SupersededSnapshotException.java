package io.steadfast.host.snapshot;

/**
 * The store refused a snapshot because the copy of the task that took it was superseded: a newer incarnation of the
 * task took over (this host was frozen or cut off, and declared dead meanwhile). Like a closed checkpoint it is not
 * retried nor counted by the circuit breaker, and the snapshot is dropped; nothing is acknowledged.
 */
public class SupersededSnapshotException extends CheckpointClosedException {

    public SupersededSnapshotException(String message, Throwable cause) {
        super(message, cause);
    }
}
