package io.steadfast.checkpoint.snapshot;

import io.steadfast.checkpoint.CheckpointId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.InputStream;
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
