package io.steadfast.api.state;

import io.steadfast.api.annotation.PublicEvolving;
import java.util.Map;

/**
 * A map per key, owned by the runtime. All calls act on the key of the PE instance currently being called.
 * Call only from the task thread, during {@code process} or {@code onTimer}. Values must not be null.
 */
@PublicEvolving
public interface MapState<K, V> {

    V get(K mapKey);

    void put(K mapKey, V value);

    void remove(K mapKey);

    boolean contains(K mapKey);

    /** A read-only view of the entries, in insertion order; do not keep it beyond the current call. */
    Map<K, V> entries();

    int size();

    void clear();
}
