package io.steadfast.protocol.host;

import org.jspecify.annotations.Nullable;

/**
 * A host's answer to a one-key state query; the router answers a one-key query of a topology's results with it too.
 *
 * @param key   the key
 * @param value its value
 */
public record KeyValue(String key, @Nullable Object value) {
}
