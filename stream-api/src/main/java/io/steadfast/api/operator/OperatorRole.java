package io.steadfast.api.operator;

import io.steadfast.api.annotation.PublicEvolving;

/** Where an operator may stand in a topology. */
@PublicEvolving
public enum OperatorRole {
    /** No inputs; emits events from a {@link io.steadfast.api.source.Source}. */
    SOURCE,
    /** Has inputs and may feed other operators. */
    PROCESSOR,
    /** Has inputs and no downstream operators. */
    SINK
}
