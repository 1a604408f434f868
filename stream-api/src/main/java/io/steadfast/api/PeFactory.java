package io.steadfast.api;

import io.steadfast.api.annotation.PublicEvolving;

/**
 * Creates the PE instance for one key. Called on the task thread, once per distinct key, and again for every
 * key after a restore. It must be cheap: a keyed operator may hold millions of instances.
 */
@PublicEvolving
@FunctionalInterface
public interface PeFactory<I, O, C> {

    ProcessingElement<I, O> create(PeInit<C> init);
}
