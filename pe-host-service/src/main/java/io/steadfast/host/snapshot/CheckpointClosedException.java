package io.steadfast.host.snapshot;

/**
 * The store refused a snapshot because its checkpoint is no longer pending (it already failed, for example by
 * timeout, or was cancelled by a recovery). Not a store failure: it is neither retried nor counted by the
 * circuit breaker, and the snapshot is simply dropped.
 */
public class CheckpointClosedException extends RuntimeException {

    public CheckpointClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
