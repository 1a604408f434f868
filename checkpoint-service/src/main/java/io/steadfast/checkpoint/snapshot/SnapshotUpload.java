package io.steadfast.checkpoint.snapshot;

import java.util.Objects;

/**
 * One snapshot of a batch to store, held in memory.
 *
 * @param key     where it goes
 * @param content its bytes (not copied: the caller must not change them)
 */
public record SnapshotUpload(SnapshotKey key, byte[] content) {

    public SnapshotUpload {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(content, "content");
    }
}
