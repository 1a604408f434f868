package io.steadfast.runtime.dataplane;

import java.util.Arrays;

/**
 * A queue that also reads any element by its position from the oldest (0): a ring buffer that doubles when full.
 * Not thread-safe; each instance belongs to the IO thread.
 */
final class IndexedRing<T> {

    private Object[] ring = new Object[16];
    private int headIndex;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void addLast(T element) {
        if (size == ring.length) {
            Object[] grown = new Object[ring.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = ring[(headIndex + i) % ring.length];
            }
            ring = grown;
            headIndex = 0;
        }
        ring[(headIndex + size) % ring.length] = element;
        size++;
    }

    /** The element {@code index} places after the oldest; 0 &lt;= index &lt; {@link #size()}. */
    @SuppressWarnings("unchecked")
    T get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " outside [0, " + size + ")");
        }
        return (T) ring[(headIndex + index) % ring.length];
    }

    T removeFirst() {
        T element = get(0);
        ring[headIndex] = null;
        headIndex = (headIndex + 1) % ring.length;
        size--;
        return element;
    }

    void clear() {
        Arrays.fill(ring, null);
        headIndex = 0;
        size = 0;
    }
}
