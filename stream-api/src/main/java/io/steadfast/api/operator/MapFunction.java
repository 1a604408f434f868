package io.steadfast.api.operator;

import io.steadfast.api.annotation.PublicEvolving;

/** A named, pure, deterministic value transformation that the built-in {@code map} operator can apply. */
@PublicEvolving
@FunctionalInterface
public interface MapFunction {

    Object apply(String key, Object value);
}
