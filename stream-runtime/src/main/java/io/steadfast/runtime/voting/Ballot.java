package io.steadfast.runtime.voting;

import java.util.List;
import java.util.Objects;

/**
 * What one version emitted for one input: its outputs' values, in order. A version that emitted nothing for the
 * input casts an empty ballot, which agrees only with other empty ones; one that emitted twice casts both values.
 *
 * @param version the version's index in the operator's {@code versions} (0 is the first listed)
 */
public record Ballot(int version, List<Object> values) {

    public Ballot {
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0, was " + version);
        }
        values = List.copyOf(Objects.requireNonNull(values, "values"));
    }

    public static Ballot of(int version, Object... values) {
        return new Ballot(version, List.of(values));
    }

    /** The single number this ballot holds, or null if it holds anything else (nothing, several values, text). */
    Double singleNumber() {
        return values.size() == 1 && values.get(0) instanceof Number number ? number.doubleValue() : null;
    }
}
