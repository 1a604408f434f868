package io.steadfast.runtime.recovery;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The decisions a recovered task replays before it runs freely: the decisions its receivers held, and the
 * input frames that arrived meanwhile, queued per channel so that records are taken from the channel the log
 * names, however the frames interleave this time. Task thread only.
 */
final class InputReplay<I> {

    private final Deque<Decision> pending;
    private final Deque<Integer> ends;
    private final long startOffset;
    private final Function<I, ChannelId> channelOf;
    private final Map<ChannelId, Deque<I>> queued = new LinkedHashMap<>();
    private int remainingOfRun = -1;
    /** The bytes of the decisions replayed and to replay, from the start offset. */
    private int length;

    /**
     * @param startOffset the log offset the parsed decisions start at
     * @param channelOf   the input channel a queued input frame arrived on
     */
    InputReplay(Decision.Parsed decisions, long startOffset, List<ChannelId> inputs,
                Function<I, ChannelId> channelOf) {
        this.channelOf = channelOf;
        this.pending = new ArrayDeque<>();
        this.ends = new ArrayDeque<>();
        this.startOffset = startOffset;
        inputs.forEach(channel -> queued.put(channel, new ArrayDeque<>()));
        extend(decisions);
    }

    /** Goes on with the decisions that follow in the log those given so far. */
    void extend(Decision.Parsed more) {
        pending.addAll(more.decisions());
        int at = length;
        more.ends().forEach(end -> ends.addLast(at + end));
        if (!more.ends().isEmpty()) {
            length = at + more.ends().get(more.ends().size() - 1);
        }
    }

    /**
     * The log offset right after the decision being replayed. A snapshot taken while replaying restarts
     * there: the original task took its snapshot at the same point, where its log had just closed an entry.
     */
    long offsetAfterCurrent() {
        return startOffset + ends.peekFirst();
    }

    boolean isDone() {
        return pending.isEmpty();
    }

    Decision next() {
        return pending.peekFirst();
    }

    /** Records still to take in the current run, which must be a {@link Decision.Run}. */
    int remainingOfRun() {
        if (remainingOfRun < 0) {
            remainingOfRun = ((Decision.Run) pending.peekFirst()).records();
        }
        return remainingOfRun;
    }

    /** {@code taken} records of the current run were taken; moves on when it is complete. */
    void took(int taken) {
        remainingOfRun -= taken;
        if (remainingOfRun == 0) {
            pending.pollFirst();
            ends.pollFirst();
            remainingOfRun = -1;
        }
    }

    /** The current decision (not a run) has been replayed. */
    void advance() {
        pending.pollFirst();
        ends.pollFirst();
        remainingOfRun = -1;
    }

    void queue(I input) {
        Deque<I> channel = queued.get(channelOf.apply(input));
        if (channel == null) {
            throw new IllegalStateException("frame of unknown input channel " + channelOf.apply(input));
        }
        channel.addLast(input);
    }

    Deque<I> queueOf(ChannelId channel) {
        return queued.get(channel);
    }

    /** Everything still queued, channel by channel, for the task to process freely. */
    List<I> drain() {
        List<I> rest = new ArrayList<>();
        queued.values().forEach(rest::addAll);
        queued.values().forEach(Deque::clear);
        return rest;
    }
}
