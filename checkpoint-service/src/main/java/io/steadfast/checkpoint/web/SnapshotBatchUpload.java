package io.steadfast.checkpoint.web;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointLifecycle;
import io.steadfast.checkpoint.snapshot.SnapshotBatchReader;
import io.steadfast.checkpoint.snapshot.SnapshotKey;
import io.steadfast.checkpoint.snapshot.SnapshotMeters;
import io.steadfast.checkpoint.snapshot.SnapshotStore;
import io.steadfast.checkpoint.snapshot.SnapshotUpload;
import io.steadfast.checkpoint.snapshot.StoredSnapshot;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The snapshots of one batch upload ({@code POST /api/v1/snapshots/{topology}/{checkpointId}/batch}), stored in
 * groups: the entries read are held in memory up to {@value #GROUP_BYTES} bytes and stored together
 * ({@link SnapshotStore#putAll}, one write and one sync for the group), after one check that the checkpoint takes
 * snapshots (and takes each from the incarnation of its task that the checkpoint expects). An entry larger than that
 * is stored on its own as it is read. An entry that cannot be read, or names a task of another topology, fails the
 * upload after the entries before it are stored. One request's, one thread.
 */
final class SnapshotBatchUpload {

    /** Entry bytes held before they are stored: a host's batch of one checkpoint (up to 8 MB) is one group. */
    static final long GROUP_BYTES = 16L << 20;

    private final TopologyId topology;
    private final CheckpointId checkpointId;
    private final SnapshotStore snapshots;
    private final CheckpointLifecycle lifecycle;
    private final SnapshotMeters meters;
    private final List<SnapshotUpload> group = new ArrayList<>();
    /** The incarnation of the copy of each task of the group that took its snapshot. */
    private final Map<TaskId, Integer> groupIncarnations = new LinkedHashMap<>();
    private final List<StoredSnapshot> stored = new ArrayList<>();
    private long groupBytes;
    private int groupFirst;
    /** The first entry of the group (or the large entry) being stored, or -1 while none is. */
    private int storing = -1;

    SnapshotBatchUpload(TopologyId topology, CheckpointId checkpointId, SnapshotStore snapshots,
                        CheckpointLifecycle lifecycle, SnapshotMeters meters) {
        this.topology = topology;
        this.checkpointId = checkpointId;
        this.snapshots = snapshots;
        this.lifecycle = lifecycle;
        this.meters = meters;
    }

    /**
     * Reads and stores every entry of {@code body}.
     *
     * @return what was stored, in the order of the entries
     * @throws BatchUploadException naming the entry that failed and what was stored before it
     */
    List<StoredSnapshot> storeAll(InputStream body) {
        SnapshotBatchReader reader = new SnapshotBatchReader(body);
        int entry = 0;
        try {
            for (SnapshotBatchReader.Entry next = reader.next(); next != null; next = reader.next()) {
                entry = next.index();
                take(next);
            }
            storeGroup();
        } catch (IOException | RuntimeException e) {
            if (storing >= 0) { // storing failed, or the checkpoint takes no more snapshots
                throw new BatchUploadException(storing, stored, e);
            }
            storeReadBefore(e);
            throw new BatchUploadException(entry, stored, e);
        }
        return List.copyOf(stored);
    }

    private void take(SnapshotBatchReader.Entry entry) throws IOException {
        TaskId task = RequestIds.task("entries[" + entry.index() + "].taskId", entry.taskId(), topology);
        SnapshotKey key = SnapshotKey.of(topology, checkpointId, task);
        if (entry.length() > GROUP_BYTES) {
            storeGroup();
            storing = entry.index();
            lifecycle.requireSnapshotsWritable(topology, checkpointId, task, entry.incarnation());
            record(List.of(snapshots.put(key, entry.content())));
            storing = -1;
            return;
        }
        if (group.isEmpty()) {
            groupFirst = entry.index();
        }
        group.add(new SnapshotUpload(key, entry.content().readAllBytes()));
        groupIncarnations.put(task, entry.incarnation());
        groupBytes += entry.length();
        if (groupBytes >= GROUP_BYTES) {
            storeGroup();
        }
    }

    private void storeGroup() {
        if (group.isEmpty()) {
            return;
        }
        storing = groupFirst;
        lifecycle.requireSnapshotsWritable(topology, checkpointId, groupIncarnations);
        record(snapshots.putAll(group));
        storing = -1;
        group.clear();
        groupIncarnations.clear();
        groupBytes = 0;
    }

    /** After a failure to read an entry: stores the whole entries read before it. */
    private void storeReadBefore(Exception failure) {
        try {
            storeGroup();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private void record(List<StoredSnapshot> snapshotsStored) {
        snapshotsStored.forEach(meters::stored);
        stored.addAll(snapshotsStored);
    }
}
