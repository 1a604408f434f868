package io.steadfast.checkpoint.web;

import io.steadfast.checkpoint.snapshot.StoredSnapshot;
import java.util.List;

/** A batch upload stopped at an entry; the entries before it are stored. */
class BatchUploadException extends RuntimeException {

    private final int entry;
    private final List<StoredSnapshot> stored;

    BatchUploadException(int entry, List<StoredSnapshot> stored, Exception cause) {
        super(cause.getMessage(), cause);
        this.entry = entry;
        this.stored = List.copyOf(stored);
    }

    int entry() {
        return entry;
    }

    List<StoredSnapshot> stored() {
        return stored;
    }
}
