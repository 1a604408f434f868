package io.steadfast.runtime.recovery;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import java.util.List;

/**
 * What a {@link DecisionReplay} needs of the task it replays into: the task's own steps, taken in the logged order
 * instead of the order its input arrives in. Called on the task thread only.
 *
 * @param <I> an input frame as the task holds it while processing it
 */
public interface ReplayedTask<I> {

    TaskId id();

    /** The next input frame that arrived, or null if none waits. */
    I pollArrived();

    /** The input channel {@code input} arrived on. */
    ChannelId channelOf(I input);

    /**
     * Processes {@code input} from where it stopped, taking at most {@code budget} sequenced records, ignoring the
     * watermarks in it (the log holds those applied).
     *
     * @return the sequenced records taken
     */
    int take(I input, int budget);

    /** Whether every record of {@code input} was processed. */
    boolean isDone(I input);

    /** Applies watermark {@code value} that arrived on input channel {@code channel}. */
    void applyWatermark(ChannelId channel, long value);

    /**
     * Lets a source emit up to {@code maxEvents} events.
     *
     * @return the events emitted, or {@link io.steadfast.api.source.Source#EXHAUSTED}
     */
    /** Applies a logged reading of the processing-time clock: fires the processing-time timers due by then. */
    void advanceProcessingTime(long millis);

    int emitFromSource(int maxEvents);

    /** A source's position. */
    long sourcePosition();

    /** Snapshots the task for {@code checkpointId} and forwards its barrier, as a logged barrier says. */
    void completeCheckpoint(long checkpointId);

    /** Has a source send the barrier of {@code checkpointId} (one it was asked for while replaying), logged. */
    void sendBarrier(long checkpointId);

    /** The replay is over: the task processes {@code queued} first, then runs freely. */
    void runFreely(List<I> queued);
}
