package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.Objects;

/**
 * A run of consecutive frames that one outbound channel logged (its output log), in the form shipped to the
 * checkpoint-service as a replay-log segment and loaded back into a restored sender with
 * {@code OutboundChannel.preloadLog}. {@code frames} is opaque outside the data plane, which encodes and decodes it.
 *
 * @param channel     the channel the frames were sent on (its epoch included)
 * @param incarnation the incarnation of the sending task that logged them: the checkpoint-service refuses segments
 *                    of an incarnation older than one it has seen on the channel
 * @param firstSeq    the sequence number of the first sequenced record in the segment
 * @param lastSeq     the sequence number of the last one
 * @param frames      the frames, encoded by the data plane
 */
public record LogSegment(ChannelId channel, int incarnation, long firstSeq, long lastSeq, byte[] frames) {

    public LogSegment {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(frames, "frames");
        if (incarnation < 0) {
            throw new IllegalArgumentException("incarnation of a segment of channel " + channel + " must be >= 0, was "
                    + incarnation);
        }
        if (firstSeq < 1 || lastSeq < firstSeq) {
            throw new IllegalArgumentException("segment seq range [" + firstSeq + ", " + lastSeq + "] is invalid");
        }
    }
}
