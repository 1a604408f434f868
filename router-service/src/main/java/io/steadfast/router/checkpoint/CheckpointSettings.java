package io.steadfast.router.checkpoint;

import java.time.Duration;

/**
 * How a coordinator checkpoints.
 *
 * @param interval time between triggers
 * @param timeout a checkpoint not complete this long after its trigger fails with TIMEOUT
 * @param maxConcurrent the most checkpoints pending at once
 */
public record CheckpointSettings(Duration interval, Duration timeout, int maxConcurrent) {
}
