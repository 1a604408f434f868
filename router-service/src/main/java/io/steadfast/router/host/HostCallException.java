package io.steadfast.router.host;

import io.steadfast.runtime.plan.HostId;

/** A call from the router to a host failed: unreachable, timed out, or answered with an error. */
public class HostCallException extends RuntimeException {

    private final HostId host;

    public HostCallException(HostId host, String message, Throwable cause) {
        super(message, cause);
        this.host = host;
    }

    public HostId host() {
        return host;
    }
}
