package io.steadfast.runtime.replaylog;

/** A replay-log batch declares a segment larger than the reader accepts. */
public class ReplayLogEntryTooLargeException extends ReplayLogFormatException {

    public ReplayLogEntryTooLargeException(int entry, String field, String message) {
        super(entry, field, message);
    }
}
