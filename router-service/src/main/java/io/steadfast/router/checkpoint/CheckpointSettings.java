package io.steadfast.router.checkpoint;

import io.steadfast.runtime.topology.CheckpointingSpec;
import java.time.Duration;

/**
 * How a coordinator checkpoints.
 *
 * @param interval time between triggers
 * @param timeout a checkpoint not complete this long after its trigger fails with TIMEOUT
 * @param maxConcurrent the most checkpoints pending at once
 */
public record CheckpointSettings(Duration interval, Duration timeout, int maxConcurrent) {

    public CheckpointSettings {
        if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()
                || maxConcurrent < 1) {
            throw new IllegalArgumentException("checkpoint interval and timeout must be positive and maxConcurrent"
                    + " at least 1, were " + interval + ", " + timeout + " and " + maxConcurrent);
        }
    }

    /** These settings with those a topology sets in its {@code "checkpointing"} section (a validated one). */
    public CheckpointSettings overriddenBy(CheckpointingSpec topology) {
        return new CheckpointSettings(topology.interval().orElse(interval), topology.timeout().orElse(timeout),
                topology.maxConcurrent() == null ? maxConcurrent : topology.maxConcurrent());
    }
}
