package io.steadfast.dashboard.fault;

import java.net.URI;

/**
 * The answer to a kill the host accepted: it halts a moment later, like a SIGKILL, and the router notices when its
 * heartbeats stop.
 *
 * @param host       the host's id
 * @param controlUrl where the dashboard sent the kill
 */
public record KillAccepted(String host, URI controlUrl) {
}
