package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Aligns checkpoint barriers across a task's input channels. A channel that delivered barrier n is blocked:
 * its later input is held back until every other channel has delivered barrier n too, so that the snapshot
 * taken then reflects exactly the input before the barriers. Channels that have ended (delivered the final
 * watermark) no longer take part. Task thread only.
 */
final class BarrierAligner {

    /** Input that arrived on a blocked channel, or the rest of a frame that stopped at a barrier. */
    static final class HeldInput {

        final InputFrame frame;
        Object[] records;
        /** Index of the next record to process. */
        int next;
        /** Sequenced records (events, barriers) still to skip: delivered before, in an earlier frame. */
        int toSkip;

        HeldInput(InputFrame frame) {
            this.frame = frame;
            this.toSkip = frame.skip();
        }

        boolean isDone() {
            return records != null && next >= records.length;
        }
    }

    private static final class ChannelState {
        boolean blocked;
        boolean ended;
        final Deque<HeldInput> held = new ArrayDeque<>();
    }

    private final Map<ChannelId, ChannelState> channels = new LinkedHashMap<>();
    private final List<HeldInput> abandoned = new ArrayList<>();
    private long aligning = -1;
    private long lastAligned;

    BarrierAligner(Collection<ChannelId> inputs) {
        inputs.forEach(channel -> channels.put(channel, new ChannelState()));
    }

    boolean isBlocked(ChannelId channel) {
        ChannelState state = channels.get(channel);
        return state != null && state.blocked;
    }

    void hold(ChannelId channel, HeldInput input) {
        channels.get(channel).held.addLast(input);
    }

    /** Puts the rest of a frame back at the head of its channel's held input. */
    void holdFirst(ChannelId channel, HeldInput input) {
        channels.get(channel).held.addFirst(input);
    }

    /** What a barrier meant to the alignment. */
    enum Outcome {
        /** Every live channel has delivered it: snapshot, forward the barrier, then {@link #release()}. */
        ALIGNED,
        /** The channel is blocked until the others deliver it too. */
        WAITING,
        /** Of a checkpoint older than one already aligning or aligned: ignored, the channel stays open. */
        OBSOLETE
    }

    /**
     * Records barrier {@code checkpointId} from {@code channel}. A barrier of a newer checkpoint than the one
     * being aligned subsumes it: that checkpoint can never complete here (an input skipped its barrier, e.g. a
     * source recovered while it was in flight), so its alignment is abandoned, its held input returned by
     * {@link #takeAbandoned()}, and the new one begins.
     */
    Outcome onBarrier(ChannelId channel, long checkpointId) {
        if (checkpointId <= lastAligned || aligning != -1 && checkpointId < aligning) {
            return Outcome.OBSOLETE;
        }
        if (aligning != -1 && checkpointId > aligning) {
            abandoned.addAll(release());
        }
        aligning = checkpointId;
        channels.get(channel).blocked = true;
        return isAligned() ? Outcome.ALIGNED : Outcome.WAITING;
    }

    /** Held input of an alignment a newer barrier subsumed; empty if none. Hand it back to processing. */
    List<HeldInput> takeAbandoned() {
        List<HeldInput> taken = List.copyOf(abandoned);
        abandoned.clear();
        return taken;
    }

    /** The channel carried its final watermark: it will send no more barriers. */
    boolean onEnded(ChannelId channel) {
        ChannelState state = channels.get(channel);
        if (state != null) {
            state.ended = true;
        }
        return aligning != -1 && isAligned();
    }

    long aligningCheckpoint() {
        return aligning;
    }

    private boolean isAligned() {
        for (ChannelState state : channels.values()) {
            if (!state.blocked && !state.ended) {
                return false;
            }
        }
        return true;
    }

    /** Unblocks every channel and returns their held input, channel by channel in arrival order. */
    List<HeldInput> release() {
        List<HeldInput> released = new ArrayList<>();
        for (ChannelState state : channels.values()) {
            state.blocked = false;
            released.addAll(state.held);
            state.held.clear();
        }
        lastAligned = Math.max(lastAligned, aligning);
        aligning = -1;
        return released;
    }
}
