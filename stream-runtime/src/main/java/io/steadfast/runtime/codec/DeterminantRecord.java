package io.steadfast.runtime.codec;

/**
 * Determinants of one upstream task carried in a frame (unsequenced): the encoded bytes of its log from offset
 * {@code from}, and the offset before which that log has been truncated. {@code origin} is the task's index in
 * its plan. Receivers keep them so that a recovered task can replay its decisions.
 */
public record DeterminantRecord(int origin, long base, long from, byte[] bytes) {
}
