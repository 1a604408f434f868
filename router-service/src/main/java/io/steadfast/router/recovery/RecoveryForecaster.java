package io.steadfast.router.recovery;

import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.topology.DeployedTopology;
import java.util.Optional;

/**
 * Predicts a recovery in both modes at the moment a host failed, for the recovery's record (and for a topology that
 * lets the router choose its mode). Must be quick and do no I/O: it runs on the recovery's path.
 */
@FunctionalInterface
public interface RecoveryForecaster {

    /** Predicts nothing. */
    RecoveryForecaster NONE = (topology, failure) -> Optional.empty();

    /** Both modes' predicted recovery of {@code topology} after {@code failure} of a host. */
    Optional<RecoveryForecasts> forecast(DeployedTopology topology, DetectedFailure failure);
}
