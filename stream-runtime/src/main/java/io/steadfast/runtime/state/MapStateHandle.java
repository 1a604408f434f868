package io.steadfast.runtime.state;

import io.steadfast.api.state.MapState;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Map state bound to the backend's current key; the map of a key is created on its first put. */
final class MapStateHandle<K, V> implements MapState<K, V> {

    private final HeapKeyedStateBackend backend;
    private final int slot;
    private final String name;

    MapStateHandle(HeapKeyedStateBackend backend, int slot, String name) {
        this.backend = backend;
        this.slot = slot;
        this.name = name;
    }

    @SuppressWarnings("unchecked")
    private Map<K, V> map() {
        return (Map<K, V>) backend.currentEntry().slot(slot);
    }

    @Override
    public V get(K mapKey) {
        Map<K, V> map = map();
        return map == null ? null : map.get(mapKey);
    }

    @Override
    public void put(K mapKey, V value) {
        Objects.requireNonNull(mapKey, () -> "map state '" + name + "' does not take null keys");
        Objects.requireNonNull(value, () -> "map state '" + name + "' does not take null values; use remove()");
        Map<K, V> map = map();
        if (map == null) {
            map = new LinkedHashMap<>(4);
            backend.currentEntry().setSlot(slot, map);
        }
        map.put(mapKey, value);
    }

    @Override
    public void remove(K mapKey) {
        Map<K, V> map = map();
        if (map != null) {
            map.remove(mapKey);
            if (map.isEmpty()) {
                backend.currentEntry().setSlot(slot, null);
            }
        }
    }

    @Override
    public boolean contains(K mapKey) {
        Map<K, V> map = map();
        return map != null && map.containsKey(mapKey);
    }

    @Override
    public Map<K, V> entries() {
        Map<K, V> map = map();
        return map == null ? Map.of() : Collections.unmodifiableMap(map);
    }

    @Override
    public int size() {
        Map<K, V> map = map();
        return map == null ? 0 : map.size();
    }

    @Override
    public void clear() {
        backend.currentEntry().setSlot(slot, null);
    }
}
