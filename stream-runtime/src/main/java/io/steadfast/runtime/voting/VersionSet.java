package io.steadfast.runtime.voting;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable set of version indexes (0..31) as the bits of an int, iterating in ascending order: the sets of a
 * {@link Verdict}, built and compared once per vote without a tree or a box per member.
 */
final class VersionSet extends AbstractSet<Integer> {

    static final VersionSet EMPTY = new VersionSet(0);
    /** The most versions a set holds; an operator has far fewer. */
    static final int CAPACITY = Integer.SIZE;

    private final int bits;

    private VersionSet(int bits) {
        this.bits = bits;
    }

    static VersionSet ofBits(int bits) {
        return bits == 0 ? EMPTY : new VersionSet(bits);
    }

    /**
     * @throws IllegalArgumentException if a member is null or outside 0..31
     */
    static VersionSet copyOf(Set<Integer> versions) {
        if (versions instanceof VersionSet set) {
            return set;
        }
        int bits = 0;
        for (Integer version : versions) {
            if (version == null || version < 0 || version >= CAPACITY) {
                throw new IllegalArgumentException("a version index must be in 0.." + (CAPACITY - 1) + ", was "
                        + version);
            }
            bits |= 1 << version;
        }
        return ofBits(bits);
    }

    int bits() {
        return bits;
    }

    @Override
    public boolean contains(Object value) {
        return value instanceof Integer version && version >= 0 && version < CAPACITY && (bits & 1 << version) != 0;
    }

    @Override
    public int size() {
        return Integer.bitCount(bits);
    }

    @Override
    public Iterator<Integer> iterator() {
        return new Iterator<>() {
            private int left = bits;

            @Override
            public boolean hasNext() {
                return left != 0;
            }

            @Override
            public Integer next() {
                if (left == 0) {
                    throw new NoSuchElementException();
                }
                int version = Integer.numberOfTrailingZeros(left);
                left &= left - 1;
                return version;
            }
        };
    }
}
