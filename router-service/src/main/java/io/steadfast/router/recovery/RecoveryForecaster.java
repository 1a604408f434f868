package io.steadfast.router.recovery;

import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import java.time.Instant;
import java.util.Optional;

/**
 * Predicts a recovery in both modes at the moment a host failed, for the recovery's record (and for a topology that
 * lets the router choose its mode). Must be quick and do no I/O: it runs on the recovery's path.
 */
@FunctionalInterface
public interface RecoveryForecaster {

    /** Predicts nothing. */
    RecoveryForecaster NONE = (topology, lostHost, lastSeenAlive) -> Optional.empty();

    /**
     * Both modes' predicted recovery of {@code topology} after losing {@code lostHost}, last seen alive (its last
     * heartbeat) at {@code lastSeenAlive}.
     */
    Optional<RecoveryForecasts> forecast(DeployedTopology topology, HostId lostHost, Instant lastSeenAlive);
}
