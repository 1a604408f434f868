package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Consecutive frames of a sender's log that go out together as one {@link MessageType#BUNDLE}. A sender that has a
 * backlog ready at once — its log replayed to a recovered receiver, a resend after a reconnect, frames held back for
 * credit — would otherwise send them one by one, and a channel of a low rate sends frames of a few records each
 * (flushed by the linger): in a 32-task job a recovered task took in hundreds of such frames, each a delivery of its
 * own (a hand-off to the task's mailbox, a decode, an acknowledgement). Bundled, they are one; the receiver still
 * counts them as the frames they are for its credit, so sender and receiver keep the same units. IO thread only.
 */
final class FrameBundle {

    /**
     * The payload bytes one bundle carries at most (fewer if the data plane's frames are smaller): as much as one full
     * frame of a task (32 KiB), so that a receiving task takes a bundle in as it takes any frame, and full frames, which
     * gain nothing from it, go on their own without being copied.
     */
    static final int MAX_BYTES = 32 * 1024;

    private final RetainedFrame first;
    /** Every frame, the first included; null for a bundle of the first alone (a frame sent as it is produced). */
    private final List<RetainedFrame> frames;
    private final int payloadBytes;

    private FrameBundle(RetainedFrame first, List<RetainedFrame> frames, int payloadBytes) {
        this.first = first;
        this.frames = frames;
        this.payloadBytes = payloadBytes;
    }

    /**
     * The frames from number {@code from} of the log that go together: at most {@code maxFrames} and as many as fit
     * in {@code maxBytes} of payload, and always the first. A frame that cannot be read back from its spill file ends
     * the bundle before it.
     *
     * @throws IOException if the first frame cannot be read back
     */
    static FrameBundle gather(FrameLog log, long from, int maxFrames, int maxBytes) throws IOException {
        RetainedFrame first = log.get(from);
        List<RetainedFrame> frames = null;
        int bytes = first.payload.length;
        long end = Math.min(log.end(), from + maxFrames);
        for (long number = from + 1; number < end; number++) {
            RetainedFrame next;
            try {
                next = log.get(number);
            } catch (IOException e) {
                break; // sent later, on its own, or reported then
            }
            if (bytes + next.payload.length > maxBytes) {
                break;
            }
            if (frames == null) {
                frames = new ArrayList<>(Math.min(maxFrames, 16));
                frames.add(first);
            }
            frames.add(next);
            bytes += next.payload.length;
        }
        return new FrameBundle(first, frames, bytes);
    }

    int size() {
        return frames == null ? 1 : frames.size();
    }

    RetainedFrame first() {
        return first;
    }

    /**
     * The bundle's header, sealed over {@code payload} ({@link #payload()}); only for a bundle of at least two frames
     * ({@link #size()}).
     */
    byte[] header(FrameCodec codec, ChannelId channel, int senderIncarnation, byte[] payload) {
        int[] lengths = new int[frames.size()];
        int events = 0;
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = frames.get(i).payload.length;
            events += frames.get(i).eventCount;
        }
        return codec.encodeBundleHeader(channel, senderIncarnation, first.firstSeq, events, lengths, payload);
    }

    /** The frames' payloads back to back; only for a bundle of at least two frames. */
    byte[] payload() {
        byte[] joined = new byte[payloadBytes];
        int at = 0;
        for (RetainedFrame frame : frames) {
            System.arraycopy(frame.payload, 0, joined, at, frame.payload.length);
            at += frame.payload.length;
        }
        return joined;
    }
}
