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

    /**
     * Where the instance declares state of the whole task rather than of its key: one value per task, shared by the
     * instances of every key the task serves (such as statistics over all keys). It is snapshotted, restored and
     * recovered with the keyed state, and may be used while any key is processed or any timer fires. Instances that
     * declare the same name get the same state.
     */
    KeyedStateRegistry taskState();

    /** Which operator, subtask and parallelism the instance runs in. */
    OperatorInfo operator();
}
