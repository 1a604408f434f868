package io.steadfast.protocol.router;

import java.net.URI;
import org.jspecify.annotations.Nullable;

/**
 * A router's answer to {@code GET /api/v1/leader}: whether it leads, and which router does. Standby routers answer it
 * too (every other request of theirs gets 503 naming the leader).
 *
 * @param role   {@value #LEADER} or {@value #STANDBY}
 * @param leader the leading router's URL as far as this one knows, or null (a standby that has seen no leader yet)
 * @param epoch  the epoch of this router's leadership (a standby: 0); 0 also for a router that runs without
 *               election
 */
public record LeaderView(String role, @Nullable URI leader, long epoch) {

    public static final String LEADER = "LEADER";
    public static final String STANDBY = "STANDBY";
}
