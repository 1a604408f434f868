package io.steadfast.api;

import io.steadfast.api.annotation.PublicEvolving;

/**
 * What a PE may do while it handles an event or a timer. Valid only during that call, and only on the task
 * thread that made it.
 *
 * @param <O> the value type of emitted events
 */
@PublicEvolving
public interface PeContext<O> {

    /** The key of the PE instance being called. */
    String key();

    /** The event time of the event being processed, or the timestamp of the firing timer (of either domain). */
    long eventTime();

    /**
     * The task's current event-time watermark: every event still to come carries a later event time, and every
     * timer at or before it has fired.
     */
    long watermark();

    /** Emits a value with the current key and event time to every downstream operator. */
    void emit(O value);

    /** Emits a value under another key, with the current event time. */
    void emit(String key, O value);

    /** Emits a complete event. */
    void emit(Event<O> event);

    /** Registers an event-time timer for the current key; registering the same timestamp twice fires once. */
    void registerTimer(long timestamp);

    /** Removes a timer of the current key registered earlier; unknown timestamps are ignored. */
    void deleteTimer(long timestamp);

    /**
     * The task's processing-time clock, in epoch milliseconds: the wall-clock time it last read, at most a few
     * milliseconds old. Unlike the wall clock it is safe for exactly-once recovery: each reading is logged with the
     * task's other nondeterministic decisions, and a task recovered in place reads the same values at the same
     * points of its input again.
     */
    long currentProcessingTime();

    /**
     * Registers a processing-time timer for the current key: {@link ProcessingElement#onProcessingTime} is called
     * once the processing-time clock reaches {@code timestamp} (epoch milliseconds); registering the same timestamp
     * twice fires once. Firings are logged like clock readings, so a recovered task fires them at the same points.
     */
    void registerProcessingTimeTimer(long timestamp);

    /** Removes a processing-time timer of the current key; unknown timestamps are ignored. */
    void deleteProcessingTimeTimer(long timestamp);
}
