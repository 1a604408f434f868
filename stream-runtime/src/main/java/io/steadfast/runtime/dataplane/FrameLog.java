package io.steadfast.runtime.dataplane;

import java.util.Arrays;

/**
 * The frames a sender retains, in sequence order, addressed by an absolute frame number that never shifts when
 * the oldest frames are dropped (so cursors into the log stay valid). A ring buffer that grows; IO thread only.
 */
final class FrameLog {

    private RetainedFrame[] ring = new RetainedFrame[16];
    private int headIndex;
    private int size;
    private long first;
    private long bytes;

    /** The number of the oldest retained frame (equal to {@link #end()} when empty). */
    long first() {
        return first;
    }

    /** The number the next appended frame gets. */
    long end() {
        return first + size;
    }

    int size() {
        return size;
    }

    long bytes() {
        return bytes;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void append(RetainedFrame frame) {
        if (size == ring.length) {
            RetainedFrame[] grown = new RetainedFrame[ring.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = ring[(headIndex + i) % ring.length];
            }
            ring = grown;
            headIndex = 0;
        }
        ring[(headIndex + size) % ring.length] = frame;
        size++;
        bytes += frame.payload.length;
    }

    /** The frame numbered {@code number}, which must lie in [{@link #first()}, {@link #end()}). */
    RetainedFrame get(long number) {
        if (number < first || number >= end()) {
            throw new IndexOutOfBoundsException("frame " + number + " outside [" + first + ", " + end() + ")");
        }
        return ring[(int) ((headIndex + (number - first)) % ring.length)];
    }

    RetainedFrame removeFirst() {
        RetainedFrame frame = ring[headIndex];
        ring[headIndex] = null;
        headIndex = (headIndex + 1) % ring.length;
        size--;
        first++;
        bytes -= frame.payload.length;
        return frame;
    }

    /** The number of the first frame whose last sequence number exceeds {@code seq}, or {@link #end()}. */
    long firstAfter(long seq) {
        long low = first;
        long high = end();
        while (low < high) {
            long mid = (low + high) >>> 1;
            if (get(mid).lastSeq() <= seq) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    void clear() {
        Arrays.fill(ring, null);
        first += size;
        headIndex = 0;
        size = 0;
        bytes = 0;
    }
}
