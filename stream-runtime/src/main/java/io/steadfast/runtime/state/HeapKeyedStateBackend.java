package io.steadfast.runtime.state;

import io.steadfast.api.codec.ValueCodec;
import io.steadfast.api.state.KeyedStateRegistry;
import io.steadfast.api.state.MapState;
import io.steadfast.api.state.ValueState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The keyed state of one task, on the heap: one {@link KeyEntry} per key, state handles that act on the
 * current key, and the declared state descriptors. Touched only by the task thread.
 */
public final class HeapKeyedStateBackend implements KeyedStateRegistry {

    private final Map<String, KeyEntry> entries = new HashMap<>();
    private final StateColumns columns = new StateColumns();
    private final Map<String, StateDescriptor> descriptors = new LinkedHashMap<>();
    private final Map<String, Object> handles = new HashMap<>();
    private KeyEntry current;

    /** The entry of {@code key}, or null if the key has not been seen. */
    public KeyEntry entry(String key) {
        return entries.get(key);
    }

    /** Adds a new, empty entry for a key that has none. */
    public KeyEntry addEntry(String key) {
        if (entries.containsKey(key)) {
            throw new IllegalStateException("key '" + key + "' already has an entry");
        }
        KeyEntry entry = new KeyEntry(key, columns.add(key), columns);
        entries.put(key, entry);
        return entry;
    }

    /** Makes the state handles act on {@code entry} until the next call. */
    public void setCurrent(KeyEntry entry) {
        this.current = entry;
    }

    KeyEntry currentEntry() {
        if (current == null) {
            throw new IllegalStateException("Keyed state was used outside process() or onTimer(): "
                    + "state handles act on the key being processed, so use them only there");
        }
        return current;
    }

    public int keyCount() {
        return entries.size();
    }

    public Collection<KeyEntry> entries() {
        return Collections.unmodifiableCollection(entries.values());
    }

    StateColumns columns() {
        return columns;
    }

    public List<StateDescriptor> descriptors() {
        return List.copyOf(descriptors.values());
    }

    public Optional<StateDescriptor> descriptor(String name) {
        return Optional.ofNullable(descriptors.get(name));
    }

    /** The value of a state of one key, for queries; a map state is returned as a copy. */
    public Optional<Object> read(String stateName, String key) {
        StateDescriptor descriptor = descriptors.get(stateName);
        KeyEntry entry = entries.get(key);
        if (descriptor == null || entry == null) {
            return Optional.empty();
        }
        Object value = entry.slot(descriptor.slot());
        if (value instanceof Map<?, ?> map) {
            return Optional.of(new LinkedHashMap<>(map));
        }
        return Optional.ofNullable(value);
    }

    /** Every key's value of one state (copies of maps), for queries; at most {@code limit} keys. */
    public Map<String, Object> readAll(String stateName, int limit) {
        StateDescriptor descriptor = descriptors.get(stateName);
        Map<String, Object> result = new LinkedHashMap<>();
        if (descriptor == null) {
            return result;
        }
        List<KeyEntry> sorted = new ArrayList<>(entries.values());
        sorted.sort((a, b) -> a.key().compareTo(b.key()));
        for (KeyEntry entry : sorted) {
            if (result.size() >= limit) {
                break;
            }
            Object value = entry.slot(descriptor.slot());
            if (value != null) {
                result.put(entry.key(), value instanceof Map<?, ?> map ? new LinkedHashMap<>(map) : value);
            }
        }
        return result;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> ValueState<T> valueState(String name, ValueCodec<T> codec) {
        Objects.requireNonNull(codec, "codec");
        StateDescriptor descriptor = declare(name, StateKind.VALUE, null, codec);
        return (ValueState<T>) handles.computeIfAbsent(name, n -> new ValueStateHandle<>(this, descriptor.slot()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> MapState<K, V> mapState(String name, ValueCodec<K> keyCodec, ValueCodec<V> valueCodec) {
        Objects.requireNonNull(keyCodec, "keyCodec");
        Objects.requireNonNull(valueCodec, "valueCodec");
        StateDescriptor descriptor = declare(name, StateKind.MAP, keyCodec, valueCodec);
        return (MapState<K, V>) handles.computeIfAbsent(name,
                n -> new MapStateHandle<>(this, descriptor.slot(), name));
    }

    private StateDescriptor declare(String name, StateKind kind, ValueCodec<?> keyCodec, ValueCodec<?> valueCodec) {
        Objects.requireNonNull(name, "state name");
        StateDescriptor existing = descriptors.get(name);
        if (existing != null) {
            if (!existing.sameShapeAs(kind, keyCodec, valueCodec)) {
                StateDescriptor requested = new StateDescriptor(name, kind, -1, keyCodec, valueCodec);
                throw new IllegalStateException("State '" + name + "' was declared as " + existing.shape()
                        + " and is now asked for as " + requested.shape() + "; use one declaration or another name");
            }
            return existing;
        }
        StateDescriptor created = new StateDescriptor(name, kind, descriptors.size(), keyCodec, valueCodec);
        descriptors.put(name, created);
        return created;
    }
}
