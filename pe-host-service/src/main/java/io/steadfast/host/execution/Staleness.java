package io.steadfast.host.execution;

import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Decides whether a deployment on this host is stale against the router's view of it, and says why. */
final class Staleness {

    /**
     * How long tasks deployed or recovered in place here may be missing from the router's view before this host
     * takes them for stale: the router records a recovery in place tens of milliseconds after the host answered it,
     * seconds on a saturated machine. Kept short: a host wrongly declared dead whose tasks run elsewhere now must
     * drop its own at its next heartbeat.
     */
    static final Duration RECORDED_WITHIN = Duration.ofSeconds(3);

    private Staleness() {
    }

    /**
     * Why the deployment of {@code topology} at {@code epoch} here must be cancelled, given what the router wants here
     * ({@code wanted}, empty if it does not know the topology); null if it stays.
     *
     * @param unchanged    how long the deployment has run here unchanged
     * @param unknownGrace how long a topology the router does not know may run here
     */
    static @Nullable String reasonToCancel(TopologyId topology, int epoch, Optional<HostDeployment> wanted,
                                           Duration unchanged, Duration unknownGrace) {
        if (wanted.isEmpty()) {
            return unchanged.compareTo(unknownGrace) > 0 ? "the router does not know topology '" + topology
                    + "' (it was cancelled while this host was unreachable, or the router restarted without its store)"
                    : null;
        }
        if (wanted.get().epoch() > epoch) {
            return "the router runs topology '" + topology + "' at epoch " + wanted.get().epoch()
                    + (wanted.get().tasks().isEmpty() ? " on other hosts" : "")
                    + " (it was recovered while this host was declared dead)";
        }
        if (wanted.get().epoch() == epoch && wanted.get().tasks().isEmpty()
                && unchanged.compareTo(RECORDED_WITHIN) > 0) {
            return "the router placed no task of topology '" + topology + "' epoch " + epoch + " on this host";
        }
        return null;
    }
}
