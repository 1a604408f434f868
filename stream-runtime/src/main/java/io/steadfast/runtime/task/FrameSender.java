package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.ChannelId;

/** Sends the frames of one output channel of a task. Called only from the task thread. */
public interface FrameSender {

    ChannelId channel();

    /** Hands over a payload of {@code records} records; the caller must not touch the array afterwards. */
    void send(byte[] payload, int records);

    /** Whether the receiver has granted room for another frame. */
    boolean hasCredit();

    /** Registers what to run (on any thread) when credit becomes available again after running out. */
    void onCreditAvailable(Runnable wakeUp);

    /**
     * The records up to and including sequence number {@code upToSeq} are covered by a completed checkpoint: a
     * sender that keeps an output log for replays may drop them. Does nothing by default.
     */
    default void truncateLog(long upToSeq) {
    }
}
