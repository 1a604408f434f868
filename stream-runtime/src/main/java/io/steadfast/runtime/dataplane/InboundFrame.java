package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;

/**
 * One received frame: events {@link #firstSeq()} .. firstSeq + eventCount - 1 of a channel. If a resent frame
 * overlaps events already delivered, the first {@link #eventsToSkip()} events must be ignored. A frame may carry
 * no events (eventCount 0: only unsequenced records such as a watermark); it is delivered only in order, right
 * after event firstSeq - 1.
 *
 * <p><b>Threading:</b> immutable apart from {@link #consumed()}, which may be called from any thread. The payload
 * array belongs to the consumer.
 */
public interface InboundFrame {

    ChannelId channel();

    long firstSeq();

    int eventCount();

    /**
     * The encoded events, exactly as the sender passed them; for a frame of several {@link #parts()}, their payloads
     * back to back.
     */
    byte[] payload();

    /**
     * How many frames the sender sent together in this one (usually 1): a sender with a backlog ready at once, such
     * as its log replayed to a recovered receiver, sends consecutive frames in one message.
     */
    default int parts() {
        return 1;
    }

    /** Where the payload of part {@code part} (from 0) ends in {@link #payload()}; the next part starts there. */
    default int partEnd(int part) {
        if (part != 0) {
            throw new IndexOutOfBoundsException("part " + part + " of a frame of one part");
        }
        return payload().length;
    }

    /** How many events at the start of the frame were already delivered and must be skipped (usually 0). */
    int eventsToSkip();

    /** The sequence number of the last event of this frame. */
    default long lastSeq() {
        return firstSeq() + eventCount() - 1;
    }

    /**
     * The consumer has processed this frame: acknowledges every event up to {@link #lastSeq()} and so releases
     * credit to the sender (as many frames as it has parts). Call once per frame, in order; any thread. A no-op after the channel closed.
     */
    void consumed();
}
