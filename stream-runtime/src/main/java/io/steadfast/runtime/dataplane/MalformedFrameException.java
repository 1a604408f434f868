package io.steadfast.runtime.dataplane;

/** A message received on the data plane could not be decoded; the reason says why. */
final class MalformedFrameException extends Exception {

    /**
     * Why a message was rejected. {@link #OVERSIZED} and {@link #BAD_CHECKSUM} are counted apart from the others
     * ({@link DataPlaneMetrics#oversizedFramesDropped()}, {@link DataPlaneMetrics#corruptFramesDropped()}).
     */
    enum Reason {
        TRUNCATED,
        BAD_MAGIC,
        BAD_VERSION,
        UNKNOWN_TYPE,
        BAD_TOPOLOGY,
        BAD_CHANNEL_INDEX,
        BAD_SEQUENCE,
        BAD_EVENT_COUNT,
        BAD_CREDIT,
        NEGATIVE_LENGTH,
        OVERSIZED,
        LENGTH_MISMATCH,
        MISSING_PAYLOAD,
        UNEXPECTED_PAYLOAD,
        TRAILING_BYTES,
        BAD_PART_COUNT,
        /** A negative incarnation. */
        BAD_INCARNATION,
        /**
         * The header's CRC32C does not match its bytes and the payload's: the message was damaged on its way (see
         * {@link FrameCodec}).
         */
        BAD_CHECKSUM
    }

    private final Reason reason;

    MalformedFrameException(Reason reason, String detail) {
        super(reason + ": " + detail, null, false, false);
        this.reason = reason;
    }

    Reason reason() {
        return reason;
    }
}
