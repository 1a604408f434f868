package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/** The id of an operator within a topology: letters, digits, dashes and underscores, at most 63 characters. */
public record OperatorId(String value) implements Comparable<OperatorId> {

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");

    public OperatorId {
        Objects.requireNonNull(value, "operator id");
        if (!VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("Operator id '" + value
                    + "' is invalid: use 1-63 letters, digits, dashes or underscores, starting with a letter or digit");
        }
    }

    public static boolean isValid(String value) {
        return value != null && VALID.matcher(value).matches();
    }

    /** Reads the JSON form, a plain string. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static OperatorId of(String value) {
        return new OperatorId(value);
    }

    @Override
    public int compareTo(OperatorId other) {
        return value.compareTo(other.value);
    }

    /** The text form, which is also the JSON form. */
    @JsonValue
    @Override
    public String toString() {
        return value;
    }
}
