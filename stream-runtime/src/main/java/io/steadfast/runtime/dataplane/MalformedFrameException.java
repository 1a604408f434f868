package io.steadfast.runtime.dataplane;

/** A message received on the data plane could not be decoded; the reason says why. */
final class MalformedFrameException extends Exception {

    /** Why a message was rejected. {@link #OVERSIZED} is counted apart from the others. */
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
        BAD_PART_COUNT
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
