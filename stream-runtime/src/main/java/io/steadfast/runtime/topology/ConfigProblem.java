package io.steadfast.runtime.topology;

import io.steadfast.api.operator.ConfigException;
import java.util.Objects;

/**
 * A problem with one field of an operator's config, as found by {@link OperatorCatalog#checkConfig}.
 *
 * @param field the config field as named in the JSON config (e.g. {@code windowMillis}); empty for the config
 *              as a whole
 * @param message what is wrong, the value seen, and what to do
 */
public record ConfigProblem(String field, String message) {

    public ConfigProblem {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(message, "message");
    }

    /** The problem a config validator reported by throwing. */
    public static ConfigProblem of(ConfigException exception) {
        return new ConfigProblem(exception.field(), String.valueOf(exception.getMessage()));
    }
}
