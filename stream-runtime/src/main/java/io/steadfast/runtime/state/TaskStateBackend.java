package io.steadfast.runtime.state;

import io.steadfast.api.state.KeyedStateRegistry;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;

/**
 * The state of a whole task rather than of one key ({@code PeInit#taskState()}): a keyed backend holding a single
 * entry that is always current, so its handles work while any key is processed. Snapshotted with the keyed state
 * codec, as a task with one key and no timers. Task thread only.
 */
public final class TaskStateBackend {

    private static final String TASK_KEY = "";

    private final HeapKeyedStateBackend backend = new HeapKeyedStateBackend();
    private final KeyEntry entry;

    public TaskStateBackend() {
        entry = backend.addEntry(TASK_KEY);
        backend.setCurrent(entry);
    }

    /** Where PEs declare task state. */
    public KeyedStateRegistry registry() {
        return backend;
    }

    /** Whether any task state was declared. */
    public boolean isDeclared() {
        return !backend.descriptors().isEmpty();
    }

    /** A copy of the state as it is now, for an asynchronous snapshot; task thread. */
    public KeyedStateSnapshotCodec.KeyedStateCopy copy() {
        return KeyedStateSnapshotCodec.copy(backend, new KeyedTimers());
    }

    /** Replaces the state with what {@code codec} wrote from a {@link #copy()}. */
    public void restore(KeyedStateSnapshotCodec codec, ByteArrayCodecInput in) {
        codec.read(in, backend, new KeyedTimers(), key -> {
            if (!TASK_KEY.equals(key)) {
                throw new io.steadfast.api.codec.CodecException("task state in the snapshot has key '" + key
                        + "'; it has only one entry");
            }
            return entry;
        });
        backend.setCurrent(entry);
    }

    /** The value of a task state, for queries. */
    public java.util.Optional<Object> read(String stateName) {
        return backend.read(stateName, TASK_KEY);
    }
}
