package io.steadfast.api.operator;

import io.steadfast.api.annotation.PublicEvolving;

/** The config type of operators that take no config. */
@PublicEvolving
public record NoConfig() {
}
