package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.operator.ConfigException;

/** Config of {@code log-sink}: log one of every {@code every} events (default 1000; 1 logs them all). */
public record LogSinkConfig(Long every) {

    public LogSinkConfig {
        every = every == null ? 1_000L : every;
        if (every < 1) {
            throw new ConfigException("every", "every must be >= 1, was " + every);
        }
    }
}
