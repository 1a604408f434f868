package io.steadfast.api.source;

import io.steadfast.api.annotation.PublicEvolving;

/**
 * A replayable source of events. One instance per source subtask.
 *
 * <h2>Threading</h2>
 * Called only from its task's mailbox thread, never concurrently. {@link #poll} must not block for long:
 * return 0 when nothing is ready (for example when a rate limit says wait) and the runtime calls again.
 *
 * <h2>Replay</h2>
 * A source is a sequence of events indexed by a position. {@link #position()} is part of every snapshot, and
 * after a restore the runtime calls {@link #seek} with it; from then on the source must emit exactly the
 * events it emitted from that position before, in the same order.
 *
 * @param <O> the value type of emitted events
 */
@PublicEvolving
public interface Source<O> {

    /**
     * Emits at most {@code maxEvents} events into {@code output}.
     *
     * @return the number emitted, or {@link #EXHAUSTED} when the source has no more events, ever
     */
    int poll(SourceOutput<O> output, int maxEvents);

    /** The position of the next event to emit. */
    long position();

    /** Moves to a position returned by {@link #position()} earlier, so the events from there are emitted again. */
    void seek(long position);

    /** Returned by {@link #poll} when the source is finished. */
    int EXHAUSTED = -1;
}
