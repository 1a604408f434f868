package io.steadfast.api.operator;

import io.steadfast.api.annotation.PublicEvolving;
import java.util.Objects;

/** An operator config value is not acceptable. Names the field so that the error can point at it. */
@PublicEvolving
public class ConfigException extends RuntimeException {

    private final String field;

    public ConfigException(String field, String message) {
        super(message);
        this.field = Objects.requireNonNull(field, "field");
    }

    /** The config field at fault, as it is named in the JSON config. */
    public String field() {
        return field;
    }
}
