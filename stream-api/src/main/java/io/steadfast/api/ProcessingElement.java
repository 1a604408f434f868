package io.steadfast.api;

import io.steadfast.api.annotation.PublicEvolving;

/**
 * A processing element (PE) with S4 semantics: the runtime creates one instance per distinct key of an
 * operator (through the operator's factory, the first time the key is seen) and hands it every event with
 * that key.
 *
 * <h2>Threading</h2>
 * All methods of all PE instances of one task are called from that task's single mailbox thread, never
 * concurrently. A PE needs no locking and must not start threads or block on I/O.
 *
 * <h2>State</h2>
 * A PE keeps what must survive a failure in state handles obtained from {@link PeInit#state()} when it is
 * created; the runtime owns, snapshots and restores that state. Plain fields of a PE are <em>not</em>
 * snapshotted: after a restore the runtime creates fresh instances and their fields start empty. A PE never
 * serialises or closes its state.
 *
 * <h2>Determinism</h2>
 * For exactly-once recovery a PE's output must depend only on its input events, its state and its timers:
 * do not read the wall clock (use {@link PeContext#currentProcessingTime()}), random numbers without a seed stored
 * in state, or external systems.
 *
 * @param <I> the value type of input events
 * @param <O> the value type of emitted events
 */
@PublicEvolving
@FunctionalInterface
public interface ProcessingElement<I, O> {

    /**
     * Processes one event whose key is the key this instance serves.
     *
     * @param event the event, never null
     * @param context emits results and registers timers; valid only during this call
     */
    void process(Event<I> event, PeContext<O> context);

    /**
     * Called when an event-time timer registered by this instance fires, that is when the task's watermark
     * passes {@code timestamp}. The default does nothing.
     */
    default void onTimer(long timestamp, PeContext<O> context) {
    }

    /**
     * Called when a processing-time timer registered by this instance fires, that is when the task's
     * processing-time clock ({@link PeContext#currentProcessingTime()}) reaches {@code timestamp}. The default does
     * nothing.
     */
    default void onProcessingTime(long timestamp, PeContext<O> context) {
    }
}
