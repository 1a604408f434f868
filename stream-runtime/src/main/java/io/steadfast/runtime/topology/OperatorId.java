package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The id of an operator within a topology: letters, digits, dashes and underscores, at most 63 characters, as a spec
 * writes it. The plan derives one more kind from a written id: {@code score~v0}, ... for the versions of an N-version
 * operator {@code score}; no spec can name one, since {@code ~} is not allowed in written ids.
 */
public record OperatorId(String value) implements Comparable<OperatorId> {

    private static final String WRITTEN = "[A-Za-z0-9][A-Za-z0-9_-]{0,62}";
    private static final Pattern WRITABLE = Pattern.compile(WRITTEN);
    private static final String VERSION_MARK = "~v";
    private static final Pattern VALID = Pattern.compile(WRITTEN + "(" + VERSION_MARK + "[0-9])?");

    public OperatorId {
        Objects.requireNonNull(value, "operator id");
        if (!VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("Operator id '" + value
                    + "' is invalid: use 1-63 letters, digits, dashes or underscores, starting with a letter or digit");
        }
    }

    /** Whether {@code value} is an operator id, written or derived by the plan. */
    public static boolean isValid(String value) {
        return value != null && VALID.matcher(value).matches();
    }

    /** Whether a spec may name an operator {@code value}: a valid id that the plan does not derive. */
    public static boolean isWritable(String value) {
        return value != null && WRITABLE.matcher(value).matches();
    }

    /** The id of version {@code index} (0-9) of this N-version operator. */
    public OperatorId version(int index) {
        if (index < 0 || index > 9 || isVersion()) {
            throw new IllegalArgumentException("Operator " + value + " has no version " + index);
        }
        return new OperatorId(value + VERSION_MARK + index);
    }

    /** Whether this is the id of a version of an N-version operator. */
    public boolean isVersion() {
        return value.contains(VERSION_MARK);
    }

    /** The version's index, for the id of a version; see {@link #isVersion()}. */
    public int versionIndex() {
        requireVersion();
        return value.charAt(value.length() - 1) - '0';
    }

    /** The N-version operator whose version this is: {@code score} for {@code score~v1}; see {@link #isVersion()}. */
    public OperatorId versionedOperator() {
        requireVersion();
        return new OperatorId(value.substring(0, value.length() - VERSION_MARK.length() - 1));
    }

    private void requireVersion() {
        if (!isVersion()) {
            throw new IllegalStateException("Operator " + value + " is no version of an N-version operator");
        }
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
