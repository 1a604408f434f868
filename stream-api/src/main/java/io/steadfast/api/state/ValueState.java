package io.steadfast.api.state;

import io.steadfast.api.annotation.PublicEvolving;

/**
 * One value per key, owned by the runtime. All calls act on the key of the PE instance currently being called.
 * Call only from the task thread, during {@code process} or {@code onTimer}.
 *
 * <p>Treat a stored value as immutable: to change it, {@link #update} with a new value. Checkpoints copy the
 * reference and encode the value later on another thread, so a value changed in place after {@code update}
 * could reach a snapshot half-changed.
 */
@PublicEvolving
public interface ValueState<T> {

    /** The current value, or null when none was set (or it was cleared). */
    T value();

    /** The current value, or {@code fallback} when none is set. */
    default T valueOr(T fallback) {
        T current = value();
        return current == null ? fallback : current;
    }

    /** Replaces the value; null is the same as {@link #clear()}. */
    void update(T value);

    void clear();
}
