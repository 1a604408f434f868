package io.steadfast.runtime.dataplane;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one {@link DataPlane}. Written by the IO thread (and {@link OutboundChannel#send}), readable from
 * any thread at any time; values are monotonic except the retained and spilled gauges.
 */
public final class DataPlaneMetrics {

    final LongAdder framesSent = new LongAdder();
    final LongAdder framesResent = new LongAdder();
    final LongAdder bundlesSent = new LongAdder();
    final LongAdder framesSentBeyondCredit = new LongAdder();
    final LongAdder framesNotSent = new LongAdder();
    final LongAdder preloadedFramesRegenerated = new LongAdder();
    final LongAdder framesReceived = new LongAdder();
    final LongAdder duplicateFramesDropped = new LongAdder();
    final LongAdder outOfOrderFramesDropped = new LongAdder();
    final LongAdder unsequencedFramesDropped = new LongAdder();
    final LongAdder malformedFramesDropped = new LongAdder();
    final LongAdder oversizedFramesDropped = new LongAdder();
    final LongAdder corruptFramesDropped = new LongAdder();
    final LongAdder fencedMessagesDropped = new LongAdder();
    final LongAdder withheldMessages = new LongAdder();
    final LongAdder unknownChannelFramesDropped = new LongAdder();
    final LongAdder earlySyncsKept = new LongAdder();
    final LongAdder acksSent = new LongAdder();
    final LongAdder syncsSent = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();
    final LongAdder ioLoopErrors = new LongAdder();
    final LongAdder spillFailures = new LongAdder();
    final LongAdder logSegmentsShipped = new LongAdder();
    final AtomicLong retainedFrames = new AtomicLong();
    final AtomicLong retainedBytes = new AtomicLong();
    final AtomicLong spilledBytes = new AtomicLong();

    /** DATA frames sent for the first time. */
    public long framesSent() {
        return framesSent.sum();
    }

    /** DATA frames sent again after a SYNC_REPLY or a gap reported by the receiver. */
    public long framesResent() {
        return framesResent.sum();
    }

    /**
     * Messages that carried several consecutive frames of a channel together ({@link MessageType#BUNDLE}): a backlog
     * sent at once, such as a log replayed to a recovered receiver. Their frames count in {@link #framesSent()} or
     * {@link #framesResent()} as well.
     */
    public long bundlesSent() {
        return bundlesSent.sum();
    }

    /** Frames a producer sent although {@link OutboundChannel#hasCredit()} was false. */
    public long framesSentBeyondCredit() {
        return framesSentBeyondCredit.sum();
    }

    /**
     * Frames a restored sender produced again that its preloaded output log already held (shipped by its
     * predecessor): not sent, their receivers get the preloaded ones.
     */
    public long preloadedFramesRegenerated() {
        return preloadedFramesRegenerated.sum();
    }

    /** Sends refused by ZeroMQ (high-water mark reached); the frame stays retained and is resent after a sync. */
    public long framesNotSent() {
        return framesNotSent.sum();
    }

    /** DATA frames received and decoded (a bundle's frames each), before dedupe. */
    public long framesReceived() {
        return framesReceived.sum();
    }

    public long duplicateFramesDropped() {
        return duplicateFramesDropped.sum();
    }

    /** Frames of no events (watermarks) dropped because they did not follow the last delivered event. */
    public long unsequencedFramesDropped() {
        return unsequencedFramesDropped.sum();
    }

    /** Frames dropped because they left a gap after the last delivered event. */
    public long outOfOrderFramesDropped() {
        return outOfOrderFramesDropped.sum();
    }

    public long malformedFramesDropped() {
        return malformedFramesDropped.sum();
    }

    public long oversizedFramesDropped() {
        return oversizedFramesDropped.sum();
    }

    /**
     * Messages of any type whose checksum did not match (damaged on their way, see {@link FrameCodec}): dropped
     * before they could move any channel's position, never delivered. The sender resends a dropped frame; a receiver
     * that can tell the channel answers its sender with its position at once (at most once per resync interval).
     */
    public long corruptFramesDropped() {
        return corruptFramesDropped.sum();
    }

    /**
     * Messages from a superseded incarnation of a task, dropped unanswered: DATA, BUNDLE and SYNC from a sending task
     * below its channel's minimum sender incarnation ({@link DataPlane#fenceInbound}), ACK and SYNC_REPLY from a
     * receiving task below the minimum receiver incarnation ({@link DataPlane#fenceOutbound}).
     */
    public long fencedMessagesDropped() {
        return fencedMessagesDropped.sum();
    }

    /** ZeroMQ messages not sent because the {@link TransmitGate} was closed (the host's lease had lapsed). */
    public long withheldMessages() {
        return withheldMessages.sum();
    }

    /** Messages for a channel not open on this side (any type but a receiver's SYNC: see {@link #earlySyncsKept}). */
    public long unknownChannelFramesDropped() {
        return unknownChannelFramesDropped.sum();
    }

    /**
     * SYNCs for a channel not open on this side yet, kept to be answered when it opens: a sender redirected to a task
     * that is still being restored here (the latest per channel is kept, at most 4,096 channels).
     */
    public long earlySyncsKept() {
        return earlySyncsKept.sum();
    }

    /** ACK and SYNC_REPLY messages sent by receivers. */
    public long acksSent() {
        return acksSent.sum();
    }

    public long syncsSent() {
        return syncsSent.sum();
    }

    /** Payload and header bytes of DATA frames sent, including resends. */
    public long bytesSent() {
        return bytesSent.sum();
    }

    /** Payload and header bytes of every message received. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /** Unexpected exceptions the IO loop caught and survived; anything above zero is a bug to report. */
    public long ioLoopErrors() {
        return ioLoopErrors.sum();
    }

    /**
     * Output log frames that could not be written to, or read back from, a spill file (IO errors). Frames that
     * could not be written stay in memory; a frame that could not be read back is tried again later.
     */
    public long spillFailures() {
        return spillFailures.sum();
    }

    /** Segments of output logs handed to the data plane's {@link OutputLogSink}. */
    public long logSegmentsShipped() {
        return logSegmentsShipped.sum();
    }

    /** Gauge: frames currently retained by all outbound channels (sent, not yet consumed). */
    public long retainedFrames() {
        return retainedFrames.get();
    }

    /** Gauge: payload bytes currently retained by all outbound channels, in memory or spilled. */
    public long retainedBytes() {
        return retainedBytes.get();
    }

    /** Gauge: of {@link #retainedBytes()}, those in spill files on disk. */
    public long spilledBytes() {
        return spilledBytes.get();
    }

    @Override
    public String toString() {
        return "DataPlaneMetrics{sent=" + framesSent() + ", resent=" + framesResent() + ", bundles=" + bundlesSent()
                + ", received="
                + framesReceived() + ", duplicates=" + duplicateFramesDropped() + ", outOfOrder="
                + outOfOrderFramesDropped() + ", malformed=" + malformedFramesDropped() + ", oversized="
                + oversizedFramesDropped() + ", corrupt=" + corruptFramesDropped() + ", fenced=" + fencedMessagesDropped()
                + ", unknownChannel=" + unknownChannelFramesDropped() + ", earlySyncs="
                + earlySyncsKept() + ", acks=" + acksSent() + ", syncs=" + syncsSent() + ", retainedFrames="
                + retainedFrames() + ", spilledBytes=" + spilledBytes() + ", spillFailures=" + spillFailures() + "}";
    }
}
