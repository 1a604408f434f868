package io.steadfast.api.state;

import io.steadfast.api.annotation.PublicEvolving;
import io.steadfast.api.codec.ValueCodec;

/**
 * Declares keyed state. A name identifies the state within the operator; asking again for the same name
 * returns the same handle, so every PE instance of an operator may declare its state in its constructor at
 * no cost. Asking for an existing name with a different kind or codec fails with an
 * {@link IllegalStateException} naming both.
 */
@PublicEvolving
public interface KeyedStateRegistry {

    <T> ValueState<T> valueState(String name, ValueCodec<T> codec);

    <K, V> MapState<K, V> mapState(String name, ValueCodec<K> keyCodec, ValueCodec<V> valueCodec);
}
