package io.steadfast.router.host;

import io.steadfast.runtime.plan.HostId;
import java.util.Optional;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** A call from the router to a host failed: unreachable, timed out, or answered with an error. */
public class HostCallException extends RuntimeException {

    private final HostId host;
    private final int status;
    private final @Nullable JsonNode problem;

    /** The call got no answer (or none that says what the host did). */
    public HostCallException(HostId host, String message, @Nullable Throwable cause) {
        this(host, message, cause, 0, null);
    }

    /**
     * The host answered with an error.
     *
     * @param status the HTTP status the host answered
     * @param problem the problem detail it answered, or null if its body was none
     */
    public HostCallException(HostId host, String message, @Nullable Throwable cause, int status,
                             @Nullable JsonNode problem) {
        super(message, cause);
        this.host = host;
        this.status = status;
        this.problem = problem;
    }

    public HostId host() {
        return host;
    }

    /** The HTTP status the host answered; empty if it did not answer. */
    public OptionalInt status() {
        return status == 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /** The problem detail the host answered with, if it answered one. */
    public Optional<JsonNode> problem() {
        return Optional.ofNullable(problem);
    }

    /**
     * Whether the host answered and refused the request (a 4xx status). A host checks a deployment whole before it
     * builds any of it, so a refused deployment left nothing running there; after any other failure (no answer, a
     * timeout, a 5xx) the host may have started part of it.
     */
    public boolean refused() {
        return status >= 400 && status < 500;
    }
}
