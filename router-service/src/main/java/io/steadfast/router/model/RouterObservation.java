package io.steadfast.router.model;

import java.time.Duration;

/**
 * How the router watches hosts and recoveries, for the delay model's detection time and for when it can see a
 * GLOBAL recovery caught up.
 *
 * @param silence the silence it waits for before declaring a host dead: with suspicion on, its minimum silence once
 *                a probe is refused; without, the heartbeat timeout
 * @param heartbeatInterval how often hosts heartbeat
 * @param progressCheck how often the router checks recoveries' progress
 */
public record RouterObservation(Duration silence, Duration heartbeatInterval, Duration progressCheck) {

    /**
     * The mean time from a crash to its detection: the silence less half a heartbeat interval, the mean time since
     * the host's last heartbeat when it crashed (never below zero).
     */
    public double detectionSeconds() {
        return Math.max(0, ModelProperties.seconds(silence) - ModelProperties.seconds(heartbeatInterval) / 2);
    }

    /**
     * The mean time after a GLOBAL redeployment at which the router can first see the job caught up: it judges the
     * sinks only once every host has heartbeated twice since (the first heartbeat half an interval later on average,
     * the second an interval after it), at its next progress check (half a check period later on average).
     */
    public double globalCatchUpSeenAfterSeconds() {
        return 1.5 * ModelProperties.seconds(heartbeatInterval) + ModelProperties.seconds(progressCheck) / 2;
    }
}
