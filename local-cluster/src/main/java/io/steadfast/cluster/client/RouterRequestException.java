package io.steadfast.cluster.client;

/** A request to the router failed: no answer, or an unexpected status. */
public class RouterRequestException extends RuntimeException {

    private final int status;

    public RouterRequestException(String message, int status) {
        super(message);
        this.status = status;
    }

    public RouterRequestException(String message, Throwable cause) {
        super(message, cause);
        this.status = -1;
    }

    /** The HTTP status, or -1 if there was no answer. */
    public int status() {
        return status;
    }
}
