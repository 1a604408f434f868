package io.steadfast.router.failure;

import io.steadfast.runtime.plan.HostId;
import java.time.Duration;
import java.time.Instant;

/**
 * A host's LIVE to DEAD transition, as the failure detector saw it.
 *
 * @param host the host
 * @param lastHeartbeat its last heartbeat
 * @param detectedAt when the detector declared it DEAD
 */
public record DetectedFailure(HostId host, Instant lastHeartbeat, Instant detectedAt) {

    /** Heartbeat silence until detection. */
    public Duration detectionTime() {
        return Duration.between(lastHeartbeat, detectedAt);
    }
}
