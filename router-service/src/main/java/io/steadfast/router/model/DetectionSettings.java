package io.steadfast.router.model;

import java.time.Duration;

/**
 * How the router detects a crashed host, for the delay model's detection time.
 *
 * @param silence the silence it waits for: with suspicion on, its minimum silence once a probe is refused; without,
 *                the heartbeat timeout
 * @param heartbeatInterval how often hosts heartbeat
 */
public record DetectionSettings(Duration silence, Duration heartbeatInterval) {

    /**
     * The mean time from a crash to its detection: the silence less half a heartbeat interval, the mean time since
     * the host's last heartbeat when it crashed (never below zero).
     */
    public double seconds() {
        double halfInterval = ModelProperties.seconds(heartbeatInterval) / 2;
        return Math.max(0, ModelProperties.seconds(silence) - halfInterval);
    }
}
