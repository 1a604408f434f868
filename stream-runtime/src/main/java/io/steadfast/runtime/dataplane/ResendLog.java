package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frames one outbound channel keeps for sending again: appended as the producer hands them over (and shipped, for
 * an output log), released to the producer's credit once the receiver acknowledged their events, dropped once
 * released (and, for an output log, truncated), spilled to disk beyond the log's memory bound. Frames preloaded from a
 * predecessor's shipped log were never handed over here, so they release no credit. IO thread only.
 */
final class ResendLog {

    private static final Logger log = LoggerFactory.getLogger(ResendLog.class);

    private final ChannelId id;
    private final Retention retention;
    private final OutputLogs outputLogs;
    private final FrameLog frames;
    private final LogShipper shipper;
    private final SenderCredit credit;
    private final RetainedLogSize size;
    /** The first frame not yet released for the producer's credit; never moves back. */
    private long released;
    /** Frames before this one were preloaded, not handed over. */
    private long handedOverFrom;
    private long truncatedUpToSeq;
    private boolean warnedUnrecoverableGap;

    ResendLog(ChannelId id, int incarnation, Retention retention, OutputLogs outputLogs, SenderCredit credit,
            RetainedLogSize size) {
        this.id = id;
        this.retention = retention;
        this.outputLogs = outputLogs;
        this.frames = outputLogs.newLog(id, incarnation, retention);
        this.shipper = outputLogs.newShipper(id, incarnation, retention);
        this.credit = credit;
        this.size = size;
    }

    /** The frames, by frame number, for the channel's cursors to read. */
    FrameLog frames() {
        return frames;
    }

    void append(RetainedFrame frame) {
        frames.append(frame);
        shipper.logged(frame);
    }

    /** Frames shipped by the channel's predecessor: kept for sending, not shipped again. */
    void appendPreloaded(List<RetainedFrame> preloaded) {
        preloaded.forEach(frames::append);
        handedOverFrom = frames.end();
    }

    /** Releases the frames whose events the receiver acknowledged; those handed over go back to the credit. */
    void release(long acknowledgedSeq) {
        long end = frames.end();
        long before = released;
        while (released < end && frames.lastSeq(released) <= acknowledgedSeq) {
            released++;
        }
        long handedOverReleased = released - Math.max(before, handedOverFrom);
        if (handedOverReleased > 0) {
            credit.release(handedOverReleased);
        }
    }

    void truncate(long upToSeq) {
        shipper.truncated(upToSeq);
        truncatedUpToSeq = Math.max(truncatedUpToSeq, upToSeq);
    }

    /**
     * Drops the oldest frames that are released (consumed) and, when logging, covered by a truncation; whether any
     * were dropped (then the first frame number moved on).
     */
    boolean dropUnneeded() {
        long before = frames.first();
        while (!frames.isEmpty() && frames.first() < released
                && (retention == Retention.UNTIL_CONSUMED || frames.lastSeq(frames.first()) <= truncatedUpToSeq)) {
            frames.removeFirst();
        }
        if (frames.first() > before) {
            size.publish(frames);
            return true;
        }
        return false;
    }

    /**
     * Logs an error, once, if a receiver that delivered up to {@code deliveredSeq} needs events this log no longer
     * holds: they cannot be resent.
     */
    void warnIfCannotResendAfter(long deliveredSeq, String receiverEndpoint) {
        if (frames.isEmpty() || warnedUnrecoverableGap) {
            return;
        }
        long oldestSeq = frames.firstSeq(frames.first());
        if (oldestSeq > deliveredSeq + 1) {
            warnedUnrecoverableGap = true;
            log.error("Channel {}: receiver at {} has delivered up to seq {} but this sender only retains from seq {};"
                    + " events {}..{} cannot be resent. Reopen the sender from an earlier position (replay).",
                    id, receiverEndpoint, deliveredSeq, oldestSeq, deliveredSeq + 1, oldestSeq - 1);
        }
    }

    void spillOverBound() {
        try {
            frames.spillOverBound();
        } catch (IOException e) {
            outputLogs.spillFailed(id, "spill its output log", "its " + frames.memoryBytes()
                    + " bytes stay in memory", e);
        }
    }

    void publishSize() {
        size.publish(frames);
    }

    /** Hands what the shipper batched to the output log's sink when due. */
    void onTimer() {
        shipper.onTimer();
    }

    /** Drops every frame and deletes its spill files; the channel is gone. */
    void discard() {
        shipper.discard();
        frames.clear();
        size.publish(frames);
    }
}
