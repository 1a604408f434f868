package io.steadfast.router.checkpoint;

/** A call to the checkpoint records store failed. */
public class CheckpointRecordsException extends RuntimeException {

    public CheckpointRecordsException(String message, Throwable cause) {
        super(message, cause);
    }
}
