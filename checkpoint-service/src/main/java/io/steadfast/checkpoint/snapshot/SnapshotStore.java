package io.steadfast.checkpoint.snapshot;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Task snapshots, stored in chunks so that their size is not bounded by a document's. Thread-safe. Every write is
 * durable when the method returns.
 */
public interface SnapshotStore {

    /**
     * Stores the bytes read from {@code content} (until its end) under {@code key}, replacing any snapshot stored
     * there. Readers see either the old or the new snapshot, never a mix. Does not close {@code content}.
     *
     * @throws IOException when reading {@code content} fails; nothing is stored then and a previous snapshot stays
     */
    StoredSnapshot put(SnapshotKey key, InputStream content) throws IOException;

    /**
     * Stores several snapshots, each as {@link #put} would, and returns when every one is durable: what a host uploads
     * for one checkpoint in one request. A store may write them together (the embedded store made each snapshot
     * durable on its own, a commit per snapshot, and a 32-task job's checkpoint waited for 32 of them in a row). If it
     * throws, some of them may have been stored and the others were not; each that was is whole.
     *
     * @return what was stored, in the order given
     */
    default List<StoredSnapshot> putAll(List<SnapshotUpload> uploads) {
        List<StoredSnapshot> stored = new ArrayList<>();
        for (SnapshotUpload upload : uploads) {
            try {
                stored.add(put(upload.key(), new ByteArrayInputStream(upload.content())));
            } catch (IOException e) {
                throw new UncheckedIOException(e); // reading from memory does not fail
            }
        }
        return stored;
    }

    Optional<StoredSnapshot> find(SnapshotKey key);

    /** Opens the snapshot for reading, or empty when none is stored under {@code key}. */
    Optional<SnapshotContent> open(SnapshotKey key);

    /** The snapshots of one checkpoint, by task. */
    List<StoredSnapshot> list(TopologyId topology, CheckpointId checkpointId);

    /**
     * Deletes the snapshots of every checkpoint of {@code topology} older than {@code before} except those in
     * {@code keep}.
     *
     * @return how many snapshots were deleted
     */
    long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep);

    /** Deletes every snapshot of the topology; returns how many. */
    long deleteTopology(TopologyId topology);
}
