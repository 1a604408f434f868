package io.steadfast.router.failure;

import io.steadfast.router.host.RegisteredHost;

/** Asks a host directly whether it is alive, when a hint says it may not be. */
@FunctionalInterface
public interface HostProbe {

    /**
     * Whether the host answered that it is alive, within the probe's own timeout. Blocks up to that timeout;
     * never throws for an unreachable host (that is a {@code false}).
     */
    boolean answers(RegisteredHost host);

    /** What a probe found. */
    enum Result {
        /** The host answered that it is alive. */
        ANSWERED,
        /** The host's machine refused the connection: nothing listens on its control port, the process is gone. */
        REFUSED,
        /** No answer in time, or an error answer. */
        NO_ANSWER
    }

    /** Probes the host, telling a refused connection from no answer where the probe can; by default it cannot. */
    default Result probe(RegisteredHost host) {
        return answers(host) ? Result.ANSWERED : Result.NO_ANSWER;
    }
}
