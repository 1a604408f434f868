package io.steadfast.api;

import io.steadfast.api.annotation.PublicEvolving;
import io.steadfast.api.state.KeyedStateRegistry;

/**
 * What a factory gets when the runtime creates the PE instance for one key.
 *
 * @param <C> the operator's config record type
 */
@PublicEvolving
public interface PeInit<C> {

    /** The key the new instance will serve. */
    String key();

    /** The operator's bound and validated config; shared by all instances, immutable. */
    C config();

    /** Where the instance declares its keyed state. */
    KeyedStateRegistry state();

    /** Which operator, subtask and parallelism the instance runs in. */
    OperatorInfo operator();
}
