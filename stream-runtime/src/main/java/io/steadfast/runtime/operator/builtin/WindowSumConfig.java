package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.operator.ConfigException;

/** Config of {@code window-sum}: the tumbling window length in event-time milliseconds (default 1000). */
public record WindowSumConfig(Long windowMillis) {

    public WindowSumConfig {
        windowMillis = windowMillis == null ? 1_000L : windowMillis;
        if (windowMillis < 1) {
            throw new ConfigException("windowMillis", "windowMillis must be >= 1, was " + windowMillis);
        }
    }
}
