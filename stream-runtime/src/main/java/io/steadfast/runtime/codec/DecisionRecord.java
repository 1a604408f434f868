package io.steadfast.runtime.codec;

/**
 * Decisions of one upstream task carried in a frame (unsequenced): the encoded bytes of its log from offset
 * {@code from}, and the offset before which that log has been truncated. {@code origin} is the task's index in
 * its plan. Receivers keep them so that a recovered task can replay its decisions.
 */
public record DecisionRecord(int origin, long base, long from, byte[] bytes) {
}
