package io.steadfast.runtime.codec;

/** What one record of a batch carries. The byte value is part of the wire format. */
public enum RecordKind {
    EVENT(0),
    WATERMARK(1),
    BARRIER(2),
    DECISIONS(3);

    private final int code;

    RecordKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
