package io.steadfast.api;

import io.steadfast.api.annotation.PublicEvolving;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable string headers of an {@link Event}. Names and values are non-null. {@link #with} returns a copy;
 * the empty instance is shared, so events without headers cost nothing extra.
 */
@PublicEvolving
public final class Headers {

    private static final Headers EMPTY = new Headers(Map.of());

    private final Map<String, String> entries;

    private Headers(Map<String, String> entries) {
        this.entries = entries;
    }

    public static Headers empty() {
        return EMPTY;
    }

    public static Headers of(Map<String, String> entries) {
        if (entries.isEmpty()) {
            return EMPTY;
        }
        Map<String, String> copy = new LinkedHashMap<>();
        entries.forEach((name, value) -> copy.put(Objects.requireNonNull(name, "header name"),
                Objects.requireNonNull(value, () -> "value of header '" + name + "'")));
        return new Headers(Collections.unmodifiableMap(copy));
    }

    public Optional<String> get(String name) {
        return Optional.ofNullable(entries.get(name));
    }

    public Headers with(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(entries);
        copy.put(Objects.requireNonNull(name, "header name"), Objects.requireNonNull(value, "header value"));
        return new Headers(Collections.unmodifiableMap(copy));
    }

    public Map<String, String> asMap() {
        return entries;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public int size() {
        return entries.size();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Headers headers && entries.equals(headers.entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
