package io.steadfast.runtime.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/** The id of a processing-node host, unique in a cluster; its JSON form is the bare text, as a value and as a map key. */
public record HostId(String value) implements Comparable<HostId> {

    public HostId {
        Objects.requireNonNull(value, "host id");
        if (value.isBlank() || value.length() > 128) {
            throw new IllegalArgumentException("Host id must be 1-128 non-blank characters, was '" + value + "'");
        }
    }

    /** Reads the JSON form, the id's text. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static HostId of(String value) {
        return new HostId(value);
    }

    @Override
    public int compareTo(HostId other) {
        return value.compareTo(other.value);
    }

    @JsonValue
    @Override
    public String toString() {
        return value;
    }
}
