package io.steadfast.runtime.plan;

import java.util.Objects;

/** The id of a processing-node host, unique in a cluster. */
public record HostId(String value) implements Comparable<HostId> {

    public HostId {
        Objects.requireNonNull(value, "host id");
        if (value.isBlank() || value.length() > 128) {
            throw new IllegalArgumentException("Host id must be 1-128 non-blank characters, was '" + value + "'");
        }
    }

    @Override
    public int compareTo(HostId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
