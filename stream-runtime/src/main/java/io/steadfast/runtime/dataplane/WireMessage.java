package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;

/**
 * A decoded data plane message. Every message names the channel it belongs to and the incarnation of the task that
 * wrote it: the sending task's on {@link Data} and {@link Sync}, the receiving task's on {@link Position}.
 */
sealed interface WireMessage {

    ChannelId channel();

    /**
     * Events firstSeq .. firstSeq + eventCount - 1 of a channel. A frame of no events (an unsequenced
     * watermark) sits between events firstSeq - 1 and firstSeq.
     *
     * @param senderIncarnation the incarnation of the sending task (see {@link DataPlane#fenceInbound})
     * @param partEnds          null for one frame ({@link MessageType#DATA}); for a {@link MessageType#BUNDLE}, where
     *                          each of its frames' payloads ends in {@code payload}
     */
    record Data(ChannelId channel, int senderIncarnation, long firstSeq, int eventCount, byte[] payload,
                int[] partEnds) implements WireMessage {
        long lastSeq() {
            return firstSeq + eventCount - 1;
        }

        /** How many frames the sender sent in this message. */
        int parts() {
            return partEnds == null ? 1 : partEnds.length;
        }
    }

    /**
     * The receiver's position: every event up to deliveredSeq has been handed to the consumer, every event up to
     * consumedSeq has been processed by it; the sender may have creditFrames frames beyond consumedSeq.
     * Sent as {@link MessageType#ACK} (credit release) or {@link MessageType#SYNC_REPLY} (resend after
     * deliveredSeq).
     *
     * @param receiverIncarnation the incarnation of the receiving task (see {@link DataPlane#fenceOutbound})
     */
    record Position(MessageType type, ChannelId channel, int receiverIncarnation, long deliveredSeq,
                    long consumedSeq, int creditFrames) implements WireMessage {
    }

    /**
     * The sender asks for the receiver's position; nextSeq is informational (the sender's next event).
     *
     * @param senderIncarnation the incarnation of the sending task
     */
    record Sync(ChannelId channel, int senderIncarnation, long nextSeq) implements WireMessage {
    }
}
