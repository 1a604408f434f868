package io.steadfast.runtime.state;

import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.CodecInput;
import io.steadfast.api.codec.CodecOutput;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.codec.ValueCodec;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes and reads the keyed state of a task: declared states (by name and codec name), every key's non-empty
 * slots, and the event-time timers. States are matched by name on restore, so a PE may add new states between
 * releases; a state restored with a different codec name than it is now declared with fails with a message.
 */
public final class KeyedStateSnapshotCodec {

    private static final int MAGIC = 0x53464B53; // "SFKS"
    private static final int VERSION = 1;

    private final ValueCodecRegistry codecs;

    public KeyedStateSnapshotCodec(ValueCodecRegistry codecs) {
        this.codecs = codecs;
    }

    /** Writes the state as it is now, on the calling (task) thread. */
    public void write(HeapKeyedStateBackend backend, KeyedTimers timers, ByteArrayCodecOutput out) {
        write(copy(backend, timers), out);
    }

    /**
     * A point-in-time copy of the state that {@link #write(KeyedStateCopy, ByteArrayCodecOutput)} can encode on
     * another thread while the task goes on: the key array is shared (keys are only appended), each state
     * column is copied with one array copy, and only the maps of map state are copied one by one, since PEs
     * change those in place. Values themselves are not copied: they are immutable once stored (PEs replace them
     * with {@code update}). Task thread.
     */
    public static KeyedStateCopy copy(HeapKeyedStateBackend backend, KeyedTimers timers) {
        List<StateDescriptor> descriptors = backend.descriptors();
        StateColumns columns = backend.columns();
        Object[][] copied = new Object[descriptors.size()][];
        for (StateDescriptor descriptor : descriptors) {
            Object[] column = columns.copyColumn(descriptor.slot());
            if (descriptor.kind() == StateKind.MAP) {
                for (int i = 0; i < column.length; i++) {
                    if (column[i] != null) {
                        column[i] = new LinkedHashMap<>((Map<?, ?>) column[i]);
                    }
                }
            }
            copied[descriptor.slot()] = column;
        }
        return new KeyedStateCopy(descriptors, columns.keys(), columns.size(), copied, timers.list());
    }

    /** Encodes a copy taken by {@link #copy}; any thread. */
    public void write(KeyedStateCopy copy, ByteArrayCodecOutput out) {
        out.writeInt(MAGIC);
        out.writeByte(VERSION);
        List<StateDescriptor> descriptors = copy.descriptors();
        out.writeLength(descriptors.size());
        for (StateDescriptor descriptor : descriptors) {
            out.writeString(descriptor.name());
            out.writeByte(descriptor.kind().code());
            out.writeString(descriptor.keyCodec() == null ? "" : descriptor.keyCodec().name());
            out.writeString(descriptor.valueCodec().name());
        }
        int withState = 0;
        for (int k = 0; k < copy.count(); k++) {
            if (copy.present(k) > 0) {
                withState++;
            }
        }
        out.writeLength(withState);
        for (int k = 0; k < copy.count(); k++) {
            int present = copy.present(k);
            if (present == 0) {
                continue;
            }
            out.writeString(copy.keys()[k]);
            out.writeLength(present);
            for (StateDescriptor descriptor : descriptors) {
                Object value = copy.value(descriptor.slot(), k);
                if (value != null) {
                    out.writeLength(descriptor.slot());
                    writeValue(descriptor, value, out);
                }
            }
        }
        writeTimers(copy.timers(), out);
    }

    /** Writes timers (of either time domain) in firing order. */
    public static void writeTimers(List<KeyedTimers.Timer> timers, ByteArrayCodecOutput out) {
        out.writeLength(timers.size());
        for (KeyedTimers.Timer timer : timers) {
            out.writeVarLong(timer.timestamp());
            out.writeString(timer.key());
        }
    }

    /** Reads timers written by {@link #writeTimers} into {@code timers}. */
    public static void readTimers(ByteArrayCodecInput in, KeyedTimers timers) {
        int timerCount = in.readCount("timers");
        for (int t = 0; t < timerCount; t++) {
            long timestamp = in.readVarLong();
            timers.register(timestamp, in.readString());
        }
    }

    /**
     * The state of a task at one point, detached from the live state.
     *
     * @param keys the keys by ordinal; only the first {@code count} belong to the copy
     * @param columns per state slot, the values by key ordinal (shorter columns: the rest are null)
     */
    public record KeyedStateCopy(List<StateDescriptor> descriptors, String[] keys, int count, Object[][] columns,
                                 List<KeyedTimers.Timer> timers) {

        Object value(int slot, int ordinal) {
            Object[] column = columns[slot];
            return ordinal < column.length ? column[ordinal] : null;
        }

        int present(int ordinal) {
            int present = 0;
            for (Object[] column : columns) {
                if (ordinal < column.length && column[ordinal] != null) {
                    present++;
                }
            }
            return present;
        }
    }

    @SuppressWarnings("unchecked")
    private void writeValue(StateDescriptor descriptor, Object value, ByteArrayCodecOutput out) {
        ValueCodec<Object> valueCodec = withUserTypes(descriptor.valueCodec());
        if (descriptor.kind() == StateKind.VALUE) {
            valueCodec.encode(value, out);
            return;
        }
        ValueCodec<Object> keyCodec = withUserTypes(descriptor.keyCodec());
        Map<Object, Object> map = (Map<Object, Object>) value;
        out.writeLength(map.size());
        for (Map.Entry<Object, Object> e : map.entrySet()) {
            keyCodec.encode(e.getKey(), out);
            valueCodec.encode(e.getValue(), out);
        }
    }

    /**
     * Restores into an empty backend and timer set.
     *
     * @param createEntry adds the entry of a key to the backend and attaches its PE (which may declare state)
     */
    public void read(ByteArrayCodecInput in, HeapKeyedStateBackend backend, KeyedTimers timers,
                     Function<String, KeyEntry> createEntry) {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new CodecException("not a keyed state snapshot (magic " + Integer.toHexString(magic) + ")");
        }
        int version = in.readByte();
        if (version != VERSION) {
            throw new CodecException("keyed state snapshot version " + version + " is not supported (expected "
                    + VERSION + ")");
        }
        List<SnapshotState> states = readDescriptors(in);
        int keys = in.readCount("keys");
        for (int k = 0; k < keys; k++) {
            String key = in.readString();
            KeyEntry entry = createEntry.apply(key);
            int present = in.readCount("slots of key '" + key + "'");
            for (int s = 0; s < present; s++) {
                int index = in.readLength("slot index");
                if (index >= states.size()) {
                    throw new CodecException("slot " + index + " of key '" + key + "' names no declared state");
                }
                SnapshotState state = states.get(index);
                StateDescriptor target = resolve(backend, state);
                entry.setSlot(target.slot(), readValue(state, in));
            }
        }
        readTimers(in, timers);
    }

    private List<SnapshotState> readDescriptors(ByteArrayCodecInput in) {
        int count = in.readCount("state descriptors");
        List<SnapshotState> states = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = in.readString();
            StateKind kind;
            try {
                kind = StateKind.ofCode(in.readByte());
            } catch (IllegalArgumentException e) {
                throw new CodecException("state '" + name + "' in the snapshot has an " + e.getMessage(), e);
            }
            String keyCodecName = in.readString();
            ValueCodec<?> keyCodec = keyCodecName.isEmpty() ? null : codecs.codecNamed(keyCodecName);
            ValueCodec<?> valueCodec = codecs.codecNamed(in.readString());
            if ((kind == StateKind.MAP) != (keyCodec != null)) {
                throw new CodecException("state '" + name + "' in the snapshot is a " + kind
                        + " state with " + (keyCodec == null ? "no" : "a") + " key codec");
            }
            states.add(new SnapshotState(name, kind, keyCodec, valueCodec));
        }
        return states;
    }

    private static StateDescriptor resolve(HeapKeyedStateBackend backend, SnapshotState state) {
        StateDescriptor declared = backend.descriptor(state.name()).orElse(null);
        if (declared == null) {
            if (state.kind() == StateKind.VALUE) {
                backend.valueState(state.name(), state.valueCodec());
            } else {
                backend.mapState(state.name(), state.keyCodec(), state.valueCodec());
            }
            return backend.descriptor(state.name()).orElseThrow();
        }
        if (!declared.sameShapeAs(state.kind(), state.keyCodec(), state.valueCodec())) {
            throw new CodecException("State '" + state.name() + "' in the snapshot is a "
                    + new StateDescriptor(state.name(), state.kind(), -1, state.keyCodec(), state.valueCodec()).shape()
                    + " but the PE declares " + declared.shape());
        }
        return declared;
    }

    private Object readValue(SnapshotState state, ByteArrayCodecInput in) {
        ValueCodec<Object> valueCodec = withUserTypes(state.valueCodec());
        if (state.kind() == StateKind.VALUE) {
            return valueCodec.decode(in);
        }
        ValueCodec<Object> keyCodec = withUserTypes(state.keyCodec());
        int size = in.readCount("map entries");
        Map<Object, Object> map = new java.util.LinkedHashMap<>(Math.max(4, size * 2));
        for (int i = 0; i < size; i++) {
            Object mapKey = keyCodec.decode(in);
            map.put(mapKey, valueCodec.decode(in));
        }
        return map;
    }

    /**
     * {@link Codecs#ANY} covers the built-in types only; in snapshots the host's registry stands in for it with
     * the same tags plus the registered codecs, so state of "any" values (such as a sink's latest value) can hold
     * user types too. Other codecs are used as they are.
     */
    @SuppressWarnings("unchecked")
    private ValueCodec<Object> withUserTypes(ValueCodec<?> codec) {
        if (codec != Codecs.ANY) {
            return (ValueCodec<Object>) codec;
        }
        return anyWithUserTypes;
    }

    private final ValueCodec<Object> anyWithUserTypes = new ValueCodec<>() {
        @Override
        public String name() {
            return Codecs.ANY.name();
        }

        @Override
        public Class<Object> type() {
            return Object.class;
        }

        @Override
        public void encode(Object value, CodecOutput out) {
            codecs.write(value, out);
        }

        @Override
        public Object decode(CodecInput in) {
            return codecs.read(in);
        }
    };

    private record SnapshotState(String name, StateKind kind, ValueCodec<?> keyCodec, ValueCodec<?> valueCodec) {
    }
}
