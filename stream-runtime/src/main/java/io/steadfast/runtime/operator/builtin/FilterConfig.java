package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.operator.ConfigException;

/** Config of {@code filter}: the name of a registered predicate. */
public record FilterConfig(String predicate) {

    public FilterConfig {
        if (predicate == null || predicate.isBlank()) {
            throw new ConfigException("predicate", "predicate is required: name a registered filter predicate");
        }
    }
}
