package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decisions a recovered task replays before it runs freely: the determinants its receivers held, and the
 * input frames that arrived meanwhile, queued per channel so that records are taken from the channel the log
 * names, however the frames interleave this time. Task thread only.
 */
final class InputReplay {

    private final Deque<Determinant> pending;
    private final Deque<Integer> ends;
    private final long startOffset;
    private final Map<ChannelId, Deque<BarrierAligner.HeldInput>> queued = new LinkedHashMap<>();
    private int remainingOfRun = -1;
    /** The bytes of the determinants replayed and to replay, from the start offset. */
    private int length;

    /** @param startOffset the log offset the parsed determinants start at */
    InputReplay(Determinant.Parsed determinants, long startOffset, List<ChannelId> inputs) {
        this.pending = new ArrayDeque<>();
        this.ends = new ArrayDeque<>();
        this.startOffset = startOffset;
        inputs.forEach(channel -> queued.put(channel, new ArrayDeque<>()));
        extend(determinants);
    }

    /** Goes on with the determinants that follow in the log those given so far. */
    void extend(Determinant.Parsed more) {
        pending.addAll(more.determinants());
        int at = length;
        more.ends().forEach(end -> ends.addLast(at + end));
        if (!more.ends().isEmpty()) {
            length = at + more.ends().get(more.ends().size() - 1);
        }
    }

    /**
     * The log offset right after the determinant being replayed. A snapshot taken while replaying restarts
     * there: the original task took its snapshot at the same point, where its log had just closed an entry.
     */
    long offsetAfterCurrent() {
        return startOffset + ends.peekFirst();
    }

    boolean isDone() {
        return pending.isEmpty();
    }

    Determinant next() {
        return pending.peekFirst();
    }

    /** Records still to take in the current run, which must be a {@link Determinant.Run}. */
    int remainingOfRun() {
        if (remainingOfRun < 0) {
            remainingOfRun = ((Determinant.Run) pending.peekFirst()).records();
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

    /** The current determinant (not a run) has been replayed. */
    void advance() {
        pending.pollFirst();
        ends.pollFirst();
        remainingOfRun = -1;
    }

    void queue(BarrierAligner.HeldInput input) {
        Deque<BarrierAligner.HeldInput> channel = queued.get(input.frame.channel());
        if (channel == null) {
            throw new IllegalStateException("frame of unknown input channel " + input.frame.channel());
        }
        channel.addLast(input);
    }

    Deque<BarrierAligner.HeldInput> queueOf(ChannelId channel) {
        return queued.get(channel);
    }

    /** Everything still queued, channel by channel, for the task to process freely. */
    List<BarrierAligner.HeldInput> drain() {
        List<BarrierAligner.HeldInput> rest = new ArrayList<>();
        queued.values().forEach(rest::addAll);
        queued.values().forEach(Deque::clear);
        return rest;
    }
}
