package io.steadfast.runtime.dataplane;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames a sender retains, in sequence order, addressed by an absolute frame number that never shifts when
 * the oldest frames are dropped (so cursors into the log stay valid). The newest frames are held in memory up to
 * a bound of payload bytes; {@link #spillOverBound()} moves the oldest of them to disk ({@link SpilledFrames}),
 * so the log is a spilled prefix followed by an in-memory suffix. Only {@link #get} of a spilled frame reads the
 * disk; seq lookups never do. IO thread only.
 */
final class FrameLog {

    private final IndexedRing<RetainedFrame> memory = new IndexedRing<>();
    private final SpilledFrames spilled;
    private final long memoryBound;
    private long first;
    private long memoryBytes;

    /**
     * @param memoryBound payload bytes to keep in memory; {@link Long#MAX_VALUE} never spills
     * @param spilled     where frames beyond the bound go, empty
     */
    FrameLog(long memoryBound, SpilledFrames spilled) {
        this.memoryBound = memoryBound;
        this.spilled = spilled;
    }

    /** The number of the oldest retained frame (equal to {@link #end()} when empty). */
    long first() {
        return first;
    }

    /** The number the next appended frame gets. */
    long end() {
        return spillEnd() + memory.size();
    }

    /** The number of the oldest frame in memory: every frame before it is spilled. */
    private long spillEnd() {
        return first + spilled.size();
    }

    int size() {
        return spilled.size() + memory.size();
    }

    /** Payload bytes of every retained frame, in memory or spilled. */
    long bytes() {
        return memoryBytes + spilled.bytes();
    }

    long memoryBytes() {
        return memoryBytes;
    }

    long spilledBytes() {
        return spilled.bytes();
    }

    boolean isEmpty() {
        return size() == 0;
    }

    void append(RetainedFrame frame) {
        memory.addLast(frame);
        memoryBytes += frame.payload.length;
    }

    /**
     * The frame numbered {@code number}, which must lie in [{@link #first()}, {@link #end()}).
     *
     * @throws IOException if it is spilled and cannot be read back
     */
    RetainedFrame get(long number) throws IOException {
        checkRange(number);
        return number < spillEnd() ? spilled.read((int) (number - first)) : memory.get((int) (number - spillEnd()));
    }

    /** The sequence number of the first event of frame {@code number}. */
    long firstSeq(long number) {
        checkRange(number);
        return number < spillEnd() ? spilled.firstSeq((int) (number - first))
                : memory.get((int) (number - spillEnd())).firstSeq;
    }

    /** The sequence number of the last event of frame {@code number}. */
    long lastSeq(long number) {
        checkRange(number);
        return number < spillEnd() ? spilled.lastSeq((int) (number - first))
                : memory.get((int) (number - spillEnd())).lastSeq();
    }

    /** Drops the oldest frame, deleting a spill file that holds no other; the log must not be empty. */
    void removeFirst() {
        if (spilled.size() > 0) {
            spilled.removeFirst();
        } else {
            memoryBytes -= memory.removeFirst().payload.length;
        }
        first++;
    }

    /** The number of the first frame whose last sequence number exceeds {@code seq}, or {@link #end()}. */
    long firstAfter(long seq) {
        long low = first;
        long high = end();
        while (low < high) {
            long mid = (low + high) >>> 1;
            if (lastSeq(mid) <= seq) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /**
     * If the frames in memory exceed the bound, moves the oldest of them to disk until three quarters of the
     * bound are left, so that a log at its bound writes in batches rather than a frame per append.
     *
     * @throws IOException if writing fails; the frames not written stay in memory, the log intact
     */
    void spillOverBound() throws IOException {
        if (memoryBytes <= memoryBound) {
            return;
        }
        long target = memoryBound - memoryBound / 4;
        List<RetainedFrame> batch = new ArrayList<>();
        long batchBytes = 0;
        for (int i = 0; i < memory.size() && memoryBytes - batchBytes > target; i++) {
            batch.add(memory.get(i));
            batchBytes += memory.get(i).payload.length;
        }
        int spilledBefore = spilled.size();
        try {
            spilled.append(batch);
        } finally {
            for (int i = spilled.size() - spilledBefore; i > 0; i--) {
                memoryBytes -= memory.removeFirst().payload.length;
            }
        }
    }

    /** Drops every frame and deletes the spill files. */
    void clear() {
        first = end();
        memory.clear();
        memoryBytes = 0;
        spilled.clear();
    }

    private void checkRange(long number) {
        if (number < first || number >= end()) {
            throw new IndexOutOfBoundsException("frame " + number + " outside [" + first + ", " + end() + ")");
        }
    }
}
