package io.steadfast.runtime.recovery;

import java.util.Arrays;
import java.util.Optional;

/**
 * A contiguous run of a task's encoded decisions that a host holds, starting at offset {@code from} of the task's
 * log: what a recovering host collects before it knows from which offset its restored task replays.
 *
 * @param from  the log offset of the first byte
 * @param bytes the encoded decisions
 */
public record HeldDecisions(long from, byte[] bytes) {

    public HeldDecisions {
        if (from < 0) {
            throw new IllegalArgumentException("from must be >= 0, not " + from);
        }
    }

    /** The offset right after the last byte. */
    public long end() {
        return from + bytes.length;
    }

    /** The decisions from {@code offset} to the end, if this run holds that offset (or ends right at it). */
    public Optional<byte[]> after(long offset) {
        if (offset < from || offset > end()) {
            return Optional.empty();
        }
        return Optional.of(Arrays.copyOfRange(bytes, (int) (offset - from), bytes.length));
    }
}
