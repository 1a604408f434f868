package io.steadfast.checkpoint.snapshot;

import java.io.IOException;
import java.io.OutputStream;

/** A stored snapshot opened for reading. Its bytes are read from the store chunk by chunk while they are written out. */
public interface SnapshotContent {

    StoredSnapshot snapshot();

    /**
     * Writes the snapshot's bytes to {@code out}, one chunk in memory at a time; does not close {@code out}.
     *
     * @throws SnapshotNotFoundException when the snapshot was replaced or deleted while it was being read
     */
    void transferTo(OutputStream out) throws IOException;
}
