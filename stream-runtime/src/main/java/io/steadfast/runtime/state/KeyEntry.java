package io.steadfast.runtime.state;

import io.steadfast.api.ProcessingElement;
import java.util.Arrays;

/**
 * Everything an operator keeps for one key: the PE instance serving it and its state slots. Kept small on
 * purpose, since a task may hold millions. Touched only by the task thread.
 */
public final class KeyEntry {

    private static final Object[] NO_SLOTS = new Object[0];

    private final String key;
    private ProcessingElement<Object, Object> pe;
    private Object[] slots = NO_SLOTS;

    KeyEntry(String key) {
        this.key = key;
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

    Object slot(int index) {
        return index < slots.length ? slots[index] : null;
    }

    void setSlot(int index, Object value) {
        if (index >= slots.length) {
            if (value == null) {
                return;
            }
            slots = Arrays.copyOf(slots, index + 1);
        }
        slots[index] = value;
    }

    /** Whether any state slot holds a value. */
    boolean hasState() {
        for (Object slot : slots) {
            if (slot != null) {
                return true;
            }
        }
        return false;
    }

    int slotCount() {
        return slots.length;
    }
}
