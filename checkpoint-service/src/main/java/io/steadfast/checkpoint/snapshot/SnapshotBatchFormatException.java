package io.steadfast.checkpoint.snapshot;

import java.io.IOException;

/** A batch upload body does not follow the format {@link SnapshotBatchReader} documents. */
public class SnapshotBatchFormatException extends IOException {

    public SnapshotBatchFormatException(String message) {
        super(message);
    }
}
