package io.steadfast.runtime.state;

import io.steadfast.api.state.ValueState;

/** Value state bound to the backend's current key. */
final class ValueStateHandle<T> implements ValueState<T> {

    private final HeapKeyedStateBackend backend;
    private final int slot;

    ValueStateHandle(HeapKeyedStateBackend backend, int slot) {
        this.backend = backend;
        this.slot = slot;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T value() {
        return (T) backend.currentEntry().slot(slot);
    }

    @Override
    public void update(T value) {
        backend.currentEntry().setSlot(slot, value);
    }

    @Override
    public void clear() {
        backend.currentEntry().setSlot(slot, null);
    }
}
