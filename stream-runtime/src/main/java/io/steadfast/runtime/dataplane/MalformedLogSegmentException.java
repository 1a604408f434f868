package io.steadfast.runtime.dataplane;

/**
 * The bytes of a {@link LogSegment} (or of a spill file, which holds frames in the same encoding) cannot be
 * decoded: truncated, trailing, of an unknown version, or inconsistent with the segment's seq range. The message
 * names the channel, the segment's range and what was wrong.
 */
public final class MalformedLogSegmentException extends IllegalArgumentException {

    MalformedLogSegmentException(String message) {
        super(message);
    }
}
