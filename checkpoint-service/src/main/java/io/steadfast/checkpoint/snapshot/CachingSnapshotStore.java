package io.steadfast.checkpoint.snapshot;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A store that keeps the bytes of the snapshots stored last in memory, up to a bound, in front of the durable one:
 * a recovery reads the snapshots of the latest completed checkpoint, stored a second or two before, and gets them
 * without a round trip to the database, which is busy with the next checkpoint's uploads by then. Writes and deletions go to the durable store first; what is cached is
 * always what it holds. The oldest snapshots are evicted first; one larger than a quarter of the bound is not cached.
 * Thread-safe.
 */
public final class CachingSnapshotStore implements SnapshotStore {

    /** Deletions remembered to tell whether one happened while a snapshot was being stored. */
    private static final int DELETIONS_KEPT = 256;

    private final SnapshotStore store;
    private final long maxBytes;
    private final long maxEntryBytes;
    private final LinkedHashMap<SnapshotKey, Cached> cached = new LinkedHashMap<>();
    private final Deque<Deletion> deletions = new ArrayDeque<>();
    private long deletionsMade;
    private long bytes;

    private record Cached(StoredSnapshot snapshot, byte[] content) {
    }

    /** A deletion of every snapshot of a topology ({@code before == null}), or of those older than one except some. */
    private record Deletion(long number, TopologyId topology, CheckpointId before, Set<CheckpointId> keep) {

        boolean covers(SnapshotKey key) {
            return key.topology().equals(topology) && (before == null
                    || key.checkpointId().value() < before.value() && !keep.contains(key.checkpointId()));
        }
    }

    /**
     * @param maxBytes the most snapshot bytes kept in memory; 0 caches nothing
     */
    public CachingSnapshotStore(SnapshotStore store, long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("cache size must be >= 0, was " + maxBytes);
        }
        this.store = store;
        this.maxBytes = maxBytes;
        this.maxEntryBytes = maxBytes / 4;
    }

    @Override
    public StoredSnapshot put(SnapshotKey key, InputStream content) throws IOException {
        long deletionsBefore;
        synchronized (this) {
            evict(key); // a reader must not get the old bytes once the new ones may be stored
            deletionsBefore = deletionsMade;
        }
        CapturedInput captured = new CapturedInput(content, maxEntryBytes);
        StoredSnapshot stored = store.put(key, captured);
        synchronized (this) {
            evict(key);
            byte[] bytes = captured.bytes();
            if (bytes != null && bytes.length == stored.sizeBytes() && !deletedSince(deletionsBefore, key)) {
                cache(key, new Cached(stored, bytes));
            }
        }
        return stored;
    }

    /** Stores them in the durable store's way (together), then caches each as {@link #put} does. */
    @Override
    public List<StoredSnapshot> putAll(List<SnapshotUpload> uploads) {
        long deletionsBefore;
        synchronized (this) {
            uploads.forEach(upload -> evict(upload.key()));
            deletionsBefore = deletionsMade;
        }
        List<StoredSnapshot> stored = store.putAll(uploads);
        synchronized (this) {
            for (int i = 0; i < uploads.size(); i++) {
                SnapshotKey key = uploads.get(i).key();
                byte[] content = uploads.get(i).content();
                evict(key);
                if (maxEntryBytes > 0 && content.length <= maxEntryBytes && !deletedSince(deletionsBefore, key)) {
                    cache(key, new Cached(stored.get(i), content));
                }
            }
        }
        return stored;
    }

    @Override
    public Optional<StoredSnapshot> find(SnapshotKey key) {
        Cached entry = cachedEntry(key);
        return entry != null ? Optional.of(entry.snapshot()) : store.find(key);
    }

    @Override
    public Optional<SnapshotContent> open(SnapshotKey key) {
        Cached entry = cachedEntry(key);
        if (entry == null) {
            return store.open(key);
        }
        return Optional.of(new SnapshotContent() {
            @Override
            public StoredSnapshot snapshot() {
                return entry.snapshot();
            }

            @Override
            public void transferTo(OutputStream out) throws IOException {
                out.write(entry.content());
            }
        });
    }

    @Override
    public List<StoredSnapshot> list(TopologyId topology, CheckpointId checkpointId) {
        return store.list(topology, checkpointId);
    }

    @Override
    public long deleteOlderThan(TopologyId topology, CheckpointId before, Set<CheckpointId> keep) {
        forget(new Deletion(0, topology, before, Set.copyOf(keep)));
        return store.deleteOlderThan(topology, before, keep);
    }

    @Override
    public long deleteTopology(TopologyId topology) {
        forget(new Deletion(0, topology, null, Set.of()));
        return store.deleteTopology(topology);
    }

    /** Whether the snapshot under {@code key} is held in memory. */
    synchronized boolean isCached(SnapshotKey key) {
        return cached.containsKey(key);
    }

    /** The snapshot bytes held in memory. */
    synchronized long cachedBytes() {
        return bytes;
    }

    private synchronized Cached cachedEntry(SnapshotKey key) {
        return cached.get(key);
    }

    /** Evicts what {@code deletion} covers and remembers it for the uploads in progress (they must not cache). */
    private synchronized void forget(Deletion deletion) {
        Deletion numbered = new Deletion(++deletionsMade, deletion.topology(), deletion.before(), deletion.keep());
        deletions.addLast(numbered);
        if (deletions.size() > DELETIONS_KEPT) {
            deletions.removeFirst();
        }
        cached.entrySet().removeIf(entry -> {
            boolean covered = numbered.covers(entry.getKey());
            if (covered) {
                bytes -= entry.getValue().content().length;
            }
            return covered;
        });
    }

    /** Whether a deletion made after the {@code before}-th may have removed {@code key} (or it is not known). */
    private boolean deletedSince(long before, SnapshotKey key) {
        if (deletionsMade - before > deletions.size()) {
            return true; // forgotten: assume the worst
        }
        return deletions.stream().anyMatch(deletion -> deletion.number() > before && deletion.covers(key));
    }

    private void cache(SnapshotKey key, Cached entry) {
        cached.put(key, entry);
        bytes += entry.content().length;
        var oldest = cached.entrySet().iterator();
        while (bytes > maxBytes && oldest.hasNext()) {
            bytes -= oldest.next().getValue().content().length;
            oldest.remove();
        }
    }

    private void evict(SnapshotKey key) {
        Cached removed = cached.remove(key);
        if (removed != null) {
            bytes -= removed.content().length;
        }
    }

    /** The input of an upload, copied as it is read, up to a bound. */
    private static final class CapturedInput extends InputStream {

        private final InputStream in;
        private final long max;
        private ByteArrayOutputStream copy = new ByteArrayOutputStream();

        CapturedInput(InputStream in, long max) {
            this.in = in;
            this.max = max;
            if (max <= 0) {
                copy = null;
            }
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0 && copy != null) {
                copy.write(b);
                dropIfOver();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int read = in.read(buffer, offset, length);
            if (read > 0 && copy != null) {
                copy.write(buffer, offset, read);
                dropIfOver();
            }
            return read;
        }

        private void dropIfOver() {
            if (copy.size() > max) {
                copy = null;
            }
        }

        /** What was read, or null if it was more than the bound. */
        byte[] bytes() {
            return copy == null ? null : copy.toByteArray();
        }
    }
}
