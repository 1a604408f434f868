package io.steadfast.runtime.recovery;

/**
 * How a task recovered in place caught up with the live part of its job.
 *
 * @param millis  from the moment its host was asked to recover it until it had caught up
 * @param records records it took in meanwhile (replayed and buffered ones)
 * @param bytes   input frame bytes it took in meanwhile
 */
public record RecoveryCatchUp(long millis, long records, long bytes) {
}
