package io.steadfast.model;

import java.util.Objects;

/**
 * The costs of the steps of a recovery that do not depend on the load: from heartbeat settings and the recovery
 * records of earlier failures.
 *
 * @param detectionSeconds from the failure until the router declares the host dead: measured, or from the heartbeat
 *                         settings (the silence the router waits for, less half a heartbeat interval on average)
 * @param restart redeploying tasks
 * @param restore fetching their state
 * @param checkpoint when the restored checkpoint was
 * @param skipSecondsPerRecord what a downstream task of a LOCALly recovered task spends to recognise and drop one
 *                             record it had already (sequence-number dedupe); small against a record's service
 * @param globalCatchUpSeenAfterSeconds how long after a GLOBAL redeployment the router can see the job caught up at
 *                                      the soonest: it judges the sinks' progress from heartbeats, and only from
 *                                      the second of each host after the redeployment (0: at once)
 */
public record RecoverySettings(double detectionSeconds, RestartCost restart, RestoreCost restore,
                               CheckpointTiming checkpoint, double skipSecondsPerRecord,
                               double globalCatchUpSeenAfterSeconds) {

    /** One microsecond: a sequence-number comparison and a skipped decode, far below a record's service time. */
    public static final double DEFAULT_SKIP_SECONDS_PER_RECORD = 1e-6;

    public RecoverySettings {
        Finite.atLeastZero("RecoverySettings", "detectionSeconds", detectionSeconds);
        Objects.requireNonNull(restart, "restart");
        Objects.requireNonNull(restore, "restore");
        Objects.requireNonNull(checkpoint, "checkpoint");
        Finite.atLeastZero("RecoverySettings", "skipSecondsPerRecord", skipSecondsPerRecord);
        Finite.atLeastZero("RecoverySettings", "globalCatchUpSeenAfterSeconds", globalCatchUpSeenAfterSeconds);
    }

    /** Settings whose GLOBAL catch-up is seen as soon as it happens. */
    public RecoverySettings(double detectionSeconds, RestartCost restart, RestoreCost restore,
                            CheckpointTiming checkpoint, double skipSecondsPerRecord) {
        this(detectionSeconds, restart, restore, checkpoint, skipSecondsPerRecord, 0);
    }

    /** These settings, with a GLOBAL catch-up seen no sooner than {@code seconds} after the redeployment. */
    public RecoverySettings withGlobalCatchUpSeenAfter(double seconds) {
        return new RecoverySettings(detectionSeconds, restart, restore, checkpoint, skipSecondsPerRecord, seconds);
    }

    /** Settings with the {@link #DEFAULT_SKIP_SECONDS_PER_RECORD default skip cost}. */
    public RecoverySettings(double detectionSeconds, RestartCost restart, RestoreCost restore,
                            CheckpointTiming checkpoint) {
        this(detectionSeconds, restart, restore, checkpoint, DEFAULT_SKIP_SECONDS_PER_RECORD);
    }
}
