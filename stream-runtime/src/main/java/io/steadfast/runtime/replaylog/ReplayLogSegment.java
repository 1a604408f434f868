package io.steadfast.runtime.replaylog;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import java.util.Objects;

/**
 * A segment of a channel's output log as the checkpoint-service stores it: the logged frames and the latest
 * checkpoint of the topology that had completed when the host logged them.
 *
 * @param segment    the frames, with their channel and sequence range
 * @param checkpoint the id of the latest completed checkpoint at the time, or {@link #NO_CHECKPOINT} before the first
 */
public record ReplayLogSegment(LogSegment segment, long checkpoint) {

    /** The checkpoint of a segment logged before any checkpoint of its topology completed. */
    public static final long NO_CHECKPOINT = -1;

    public ReplayLogSegment {
        Objects.requireNonNull(segment, "segment");
        if (checkpoint < NO_CHECKPOINT) {
            throw new IllegalArgumentException("checkpoint must be >= 0, or " + NO_CHECKPOINT
                    + " when none had completed, was " + checkpoint);
        }
    }

    public ChannelId channel() {
        return segment.channel();
    }

    /** The incarnation of the sending task that logged it. */
    public int incarnation() {
        return segment.incarnation();
    }

    public long firstSeq() {
        return segment.firstSeq();
    }

    public long lastSeq() {
        return segment.lastSeq();
    }

    /** The size of the frames in bytes. */
    public int sizeBytes() {
        return segment.frames().length;
    }

    @Override
    public String toString() {
        return "segment [" + firstSeq() + ", " + lastSeq() + "] of channel " + channel() + " (" + sizeBytes()
                + " bytes, incarnation " + incarnation() + ", checkpoint " + checkpoint + ")";
    }
}
