package io.steadfast.runtime.dataplane;

/**
 * The frames a sender retains, in sequence order, addressed by an absolute frame number that never shifts when
 * the oldest frames are dropped (so cursors into the log stay valid). IO thread only.
 */
final class FrameLog {

    private final IndexedRing<RetainedFrame> memory = new IndexedRing<>();
    private long first;
    private long bytes;

    /** The number of the oldest retained frame (equal to {@link #end()} when empty). */
    long first() {
        return first;
    }

    /** The number the next appended frame gets. */
    long end() {
        return first + memory.size();
    }

    int size() {
        return memory.size();
    }

    /** Payload bytes of every retained frame. */
    long bytes() {
        return bytes;
    }

    boolean isEmpty() {
        return memory.isEmpty();
    }

    void append(RetainedFrame frame) {
        memory.addLast(frame);
        bytes += frame.payload.length;
    }

    /** The frame numbered {@code number}, which must lie in [{@link #first()}, {@link #end()}). */
    RetainedFrame get(long number) {
        return memory.get(indexOf(number));
    }

    /** The sequence number of the first event of frame {@code number}. */
    long firstSeq(long number) {
        return get(number).firstSeq;
    }

    /** The sequence number of the last event of frame {@code number}. */
    long lastSeq(long number) {
        return get(number).lastSeq();
    }

    /** Drops the oldest frame; the log must not be empty. */
    void removeFirst() {
        bytes -= memory.removeFirst().payload.length;
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

    void clear() {
        first = end();
        memory.clear();
        bytes = 0;
    }

    private int indexOf(long number) {
        if (number < first || number >= end()) {
            throw new IndexOutOfBoundsException("frame " + number + " outside [" + first + ", " + end() + ")");
        }
        return (int) (number - first);
    }
}
