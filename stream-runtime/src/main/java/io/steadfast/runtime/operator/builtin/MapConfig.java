package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.operator.ConfigException;

/** Config of {@code map}: the name of a registered map function. */
public record MapConfig(String function) {

    public MapConfig {
        if (function == null || function.isBlank()) {
            throw new ConfigException("function", "function is required: name a registered map function");
        }
    }
}
