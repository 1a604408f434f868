package io.steadfast.api;

import io.steadfast.api.annotation.PublicEvolving;
import java.util.Objects;

/**
 * An immutable event: a key (which routes it to one PE instance of a keyed operator), a value, an event time
 * in epoch milliseconds, and headers. Use the {@code withX} methods for modified copies.
 *
 * <p>The value may be null (a tombstone); key and headers may not.
 *
 * @param <V> the value type
 */
@PublicEvolving
public record Event<V>(String key, V value, long eventTime, Headers headers) {

    public Event {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(headers, "headers");
    }

    public static <V> Event<V> of(String key, V value, long eventTime) {
        return new Event<>(key, value, eventTime, Headers.empty());
    }

    public Event<V> withKey(String newKey) {
        return new Event<>(newKey, value, eventTime, headers);
    }

    public <W> Event<W> withValue(W newValue) {
        return new Event<>(key, newValue, eventTime, headers);
    }

    public Event<V> withEventTime(long newEventTime) {
        return new Event<>(key, value, newEventTime, headers);
    }

    public Event<V> withHeader(String name, String headerValue) {
        return new Event<>(key, value, eventTime, headers.with(name, headerValue));
    }
}
