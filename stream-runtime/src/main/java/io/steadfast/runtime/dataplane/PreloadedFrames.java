package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames of shipped log segments that a restored sender loads ({@link OutboundChannel#preloadLog}): every
 * frame from the channel's position on, without a gap. Frames that end before the position are passed over:
 * segments may begin before the checkpoint the sender was restored from, and may overlap where an earlier
 * restored sender logged again what it regenerated.
 *
 * @param frames  the frames to append to the log, each ending after the one before
 * @param lastSeq the last seq they hold; {@code fromSeq - 1} if none
 */
record PreloadedFrames(List<RetainedFrame> frames, long lastSeq) {

    /**
     * @param senderIncarnation the incarnation of the sender that loads them: their headers carry it
     * @param fromSeq the first seq the log needs: the channel's next seq, or the seq after an earlier preload
     * @throws IllegalArgumentException if a segment belongs to another channel, or the frames leave a gap (the
     *                                  message names the missing seqs)
     * @throws MalformedLogSegmentException if a segment cannot be decoded
     */
    static PreloadedFrames select(ChannelId channel, int senderIncarnation, List<LogSegment> segments, long fromSeq,
            LogSegmentCodec codec) {
        List<RetainedFrame> frames = new ArrayList<>();
        long next = fromSeq;
        for (LogSegment segment : segments) {
            if (!segment.channel().equals(channel)) {
                throw new IllegalArgumentException("Cannot preload segment [" + segment.firstSeq() + ", "
                        + segment.lastSeq() + "] of channel " + segment.channel() + " into channel " + channel);
            }
            for (RetainedFrame frame : codec.decode(segment, senderIncarnation)) {
                if (frame.lastSeq() < next) {
                    continue;
                }
                if (frame.firstSeq > next) {
                    throw new IllegalArgumentException("Cannot preload the log of channel " + channel + ": seqs "
                            + next + ".." + (frame.firstSeq - 1) + " are missing before segment [" + segment.firstSeq()
                            + ", " + segment.lastSeq() + "]; pass the segments that cover them, in order");
                }
                frames.add(frame);
                next = frame.lastSeq() + 1;
            }
        }
        return new PreloadedFrames(List.copyOf(frames), next - 1);
    }
}
