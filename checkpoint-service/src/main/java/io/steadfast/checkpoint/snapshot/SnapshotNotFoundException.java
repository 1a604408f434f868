package io.steadfast.checkpoint.snapshot;

/** No snapshot is stored under a key (or it was replaced or deleted while being read). */
public class SnapshotNotFoundException extends RuntimeException {

    private final SnapshotKey key;

    public SnapshotNotFoundException(SnapshotKey key, String message) {
        super(message);
        this.key = key;
    }

    public SnapshotNotFoundException(SnapshotKey key) {
        this(key, "No " + key + " is stored; the task uploads it with PUT /api/v1/snapshots/" + key.topology() + "/"
                + key.checkpointId() + "?task=" + key.task());
    }

    public SnapshotKey key() {
        return key;
    }
}
