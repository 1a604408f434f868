package io.steadfast.router.failure;

import io.steadfast.runtime.plan.HostId;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A host's LIVE to DEAD transition, as the failure detector saw it.
 *
 * @param host the host
 * @param lastHeartbeat its last heartbeat
 * @param detectedAt when the detector declared it DEAD
 * @param cause what made the detector declare it DEAD
 */
public record DetectedFailure(HostId host, Instant lastHeartbeat, Instant detectedAt, DetectionCause cause) {

    public DetectedFailure {
        Objects.requireNonNull(cause, "cause");
    }

    /** A failure detected by the heartbeat timeout. */
    public DetectedFailure(HostId host, Instant lastHeartbeat, Instant detectedAt) {
        this(host, lastHeartbeat, detectedAt, DetectionCause.HEARTBEAT_TIMEOUT);
    }

    /** Heartbeat silence until detection. */
    public Duration detectionTime() {
        return Duration.between(lastHeartbeat, detectedAt);
    }
}
