package io.steadfast.runtime.codec;

/**
 * A checkpoint barrier: everything before it on a channel belongs to checkpoint {@code checkpointId}, everything
 * after it to the next one.
 */
public record Barrier(long checkpointId) {
}
