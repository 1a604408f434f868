package io.steadfast.runtime.state;

import io.steadfast.api.ProcessingElement;

/**
 * One key of an operator: its PE instance and its place (ordinal) in the task's state columns. Kept small on
 * purpose, since a task may hold millions. Touched only by the task thread.
 */
public final class KeyEntry {

    private final String key;
    private final int ordinal;
    private final StateColumns columns;
    private ProcessingElement<Object, Object> pe;

    KeyEntry(String key, int ordinal, StateColumns columns) {
        this.key = key;
        this.ordinal = ordinal;
        this.columns = columns;
    }

    public String key() {
        return key;
    }

    public ProcessingElement<Object, Object> pe() {
        return pe;
    }

    public void attach(ProcessingElement<Object, Object> instance) {
        this.pe = instance;
    }

    int ordinal() {
        return ordinal;
    }

    Object slot(int index) {
        return columns.get(index, ordinal);
    }

    void setSlot(int index, Object value) {
        columns.set(index, ordinal, value);
    }

    /** Whether any state slot holds a value. */
    boolean hasState() {
        return columns.hasState(ordinal);
    }
}
