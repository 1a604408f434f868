package io.steadfast.runtime.replaylog;

import java.io.IOException;

/**
 * A replay-log batch does not follow the format {@link ReplayLogBatchWriter} documents. Names the entry (from 0;
 * -1 for the header) and the field that is wrong, e.g. {@code entries[3].lastSeq}.
 */
public class ReplayLogFormatException extends IOException {

    private final int entry;
    private final String field;

    public ReplayLogFormatException(int entry, String field, String message) {
        super(message);
        this.entry = entry;
        this.field = field;
    }

    public int entry() {
        return entry;
    }

    public String field() {
        return field;
    }
}
