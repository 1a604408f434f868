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
}
