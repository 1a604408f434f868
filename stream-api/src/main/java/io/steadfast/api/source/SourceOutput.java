package io.steadfast.api.source;

import io.steadfast.api.annotation.PublicEvolving;

/** Where a {@link Source} emits. Valid only during {@code poll}. */
@PublicEvolving
public interface SourceOutput<O> {

    void emit(String key, O value, long eventTime);
}
