package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/** The id of a deployed topology: lowercase letters, digits and dashes, at most 63 characters. */
public record TopologyId(String value) implements Comparable<TopologyId> {

    private static final Pattern VALID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    public TopologyId {
        Objects.requireNonNull(value, "topology id");
        if (!VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("Topology id '" + value
                    + "' is invalid: use 1-63 lowercase letters, digits or dashes, starting with a letter or digit");
        }
    }

    public static boolean isValid(String value) {
        return value != null && VALID.matcher(value).matches();
    }

    /** Reads the JSON form, a plain string. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static TopologyId of(String value) {
        return new TopologyId(value);
    }

    @Override
    public int compareTo(TopologyId other) {
        return value.compareTo(other.value);
    }

    /** The text form, which is also the JSON form. */
    @JsonValue
    @Override
    public String toString() {
        return value;
    }
}
