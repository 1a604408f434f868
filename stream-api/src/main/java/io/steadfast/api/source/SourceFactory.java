package io.steadfast.api.source;

import io.steadfast.api.annotation.PublicEvolving;

/** Creates the source of one subtask. */
@PublicEvolving
@FunctionalInterface
public interface SourceFactory<O, C> {

    Source<O> create(SourceInit<C> init);
}
