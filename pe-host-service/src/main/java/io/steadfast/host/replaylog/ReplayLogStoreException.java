package io.steadfast.host.replaylog;

/** A call to the replay-log store failed: unreachable, timed out, or it failed inside. Worth retrying. */
public class ReplayLogStoreException extends RuntimeException {

    public ReplayLogStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
