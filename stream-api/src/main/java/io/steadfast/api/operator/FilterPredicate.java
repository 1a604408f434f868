package io.steadfast.api.operator;

import io.steadfast.api.annotation.PublicEvolving;

/** A named, pure, deterministic predicate that the built-in {@code filter} operator can apply. */
@PublicEvolving
@FunctionalInterface
public interface FilterPredicate {

    boolean test(String key, Object value);
}
