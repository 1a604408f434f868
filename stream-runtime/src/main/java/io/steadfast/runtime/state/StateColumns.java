package io.steadfast.runtime.state;

import java.util.Arrays;

/**
 * The keyed state of a task, column by column: key {@code k} (by ordinal, in order of arrival) has the value of
 * state slot {@code s} at {@code columns[s][k]}. Keys are only ever appended, so a snapshot can keep the key
 * array as it is and copy each column with one array copy, instead of visiting every key: that keeps the
 * pause a checkpoint adds to a task short however many keys it holds. Task thread only.
 */
final class StateColumns {

    private static final Object[] EMPTY = new Object[0];

    private String[] keys = new String[64];
    private int size;
    private Object[][] columns = new Object[0][];

    int add(String key) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size + (size >> 1));
        }
        keys[size] = key;
        return size++;
    }

    int size() {
        return size;
    }

    Object get(int slot, int ordinal) {
        if (slot >= columns.length) {
            return null;
        }
        Object[] column = columns[slot];
        return ordinal < column.length ? column[ordinal] : null;
    }

    void set(int slot, int ordinal, Object value) {
        if (slot >= columns.length) {
            if (value == null) {
                return;
            }
            int old = columns.length;
            columns = Arrays.copyOf(columns, slot + 1);
            for (int i = old; i <= slot; i++) {
                columns[i] = EMPTY;
            }
        }
        Object[] column = columns[slot];
        if (ordinal >= column.length) {
            if (value == null) {
                return;
            }
            column = Arrays.copyOf(column, Math.max(ordinal + 1, keys.length));
            columns[slot] = column;
        }
        column[ordinal] = value;
    }

    boolean hasState(int ordinal) {
        for (Object[] column : columns) {
            if (ordinal < column.length && column[ordinal] != null) {
                return true;
            }
        }
        return false;
    }

    /** The keys so far; the first {@link #size()} entries never change, so the array may be shared. */
    String[] keys() {
        return keys;
    }

    /** A copy of the first {@link #size()} values of a slot's column (null entries where keys have none). */
    Object[] copyColumn(int slot) {
        if (slot >= columns.length) {
            return new Object[0];
        }
        Object[] column = columns[slot];
        return Arrays.copyOf(column, Math.min(column.length, size));
    }
}
