package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of one channel: dedupe and resequencing of DATA frames, answers to SYNC, and cumulative
 * ACKs carrying the consumer's progress.
 *
 * <p>The IO thread owns the delivery position and the sender's routing id. {@link #consumed(long)} is called
 * from any thread; it records the progress atomically. ACKs are deferred: one goes at once when a quarter of the
 * granted window has been consumed since the last (at most one pending, so a burst of consumed frames costs one
 * ACK and at most one wake-up of the IO thread), otherwise on the IO thread's next timer pass
 * ({@link #onTimer}, a quarter of the resync interval). A sender therefore never waits for credit an ACK would
 * have given, while a channel of a few frames a second no longer costs an ACK and a wake-up per frame (with many
 * channels, those were as many messages as the frames themselves).
 *
 * <p>A {@link MessageType#BUNDLE} is delivered as one frame but counts as the frames it carries, for the window, the
 * ACKs and the average frame size alike, as it does for its sender.
 */
final class InboundChannelState {

    private static final Logger log = LoggerFactory.getLogger(InboundChannelState.class);

    private final ChannelId id;
    private final InboundListener listener;
    private final IoLoop loop;
    private final FrameCodec codec;
    private final DataPlaneMetrics metrics;
    private final int creditFrames;
    private final int creditBytes;
    private final long resyncNanos;

    private final AtomicLong consumedSeq;
    private final AtomicBoolean ackScheduled = new AtomicBoolean();
    /** Frames consumed since the last ACK went out. */
    private final AtomicInteger unackedFrames = new AtomicInteger();
    /** Consumption not acknowledged yet, for the next timer pass. */
    private volatile boolean ackDeferred;
    /** How many consumed frames send an ACK at once: a quarter of the window last granted. */
    private volatile int ackEveryFrames;
    private volatile boolean closed;

    // IO thread only
    private long lastDeliveredSeq;
    private byte[] senderRoutingId;
    private long lastGapReplyExpected = -1;
    private long lastGapReplyNanos;
    /** Moving average of the sizes of the data frames received, for a window in bytes. */
    private double averageFrameBytes;

    InboundChannelState(ChannelId id, long lastDeliveredSeq, InboundListener listener, IoLoop loop, FrameCodec codec,
            DataPlaneMetrics metrics, int creditFrames, int creditBytes, long resyncNanos) {
        if (lastDeliveredSeq < 0) {
            throw new IllegalArgumentException("lastDeliveredSeq of channel " + id + " must be >= 0, was "
                    + lastDeliveredSeq);
        }
        this.id = id;
        this.listener = listener;
        this.loop = loop;
        this.codec = codec;
        this.metrics = metrics;
        this.creditFrames = creditFrames;
        this.creditBytes = creditBytes;
        this.averageFrameBytes = creditBytes > 0 ? (double) creditBytes / creditFrames : 0;
        this.resyncNanos = resyncNanos;
        this.lastDeliveredSeq = lastDeliveredSeq;
        this.consumedSeq = new AtomicLong(lastDeliveredSeq);
        this.ackEveryFrames = ackThreshold(creditFrames);
    }

    ChannelId id() {
        return id;
    }

    void markClosed() {
        closed = true;
    }

    // ---------------------------------------------------------------- any thread

    /** The consumer processed a frame of {@code frames} parts, up to event {@code upToSeq}. */
    void consumed(long upToSeq, int frames) {
        if (closed) {
            return;
        }
        consumedSeq.accumulateAndGet(upToSeq, Math::max);
        if (unackedFrames.addAndGet(frames) >= ackEveryFrames) {
            scheduleAck();
        } else {
            ackDeferred = true;
        }
    }

    private void scheduleAck() {
        if (ackScheduled.compareAndSet(false, true)) {
            loop.submit(this::sendAck);
        }
    }

    // ---------------------------------------------------------------- IO thread

    void onData(byte[] routingId, WireMessage.Data data, long nowNanos) {
        if (closed) {
            // closed by another thread while this frame was on its way: its listener must not see it
            metrics.unknownChannelFramesDropped.increment();
            return;
        }
        senderRoutingId = routingId;
        long expected = lastDeliveredSeq + 1;
        if (data.eventCount() == 0) {
            onUnsequenced(data);
            return;
        }
        averageFrameBytes += ((double) data.payload().length / data.parts() - averageFrameBytes) / 16;
        if (data.lastSeq() < expected) {
            metrics.duplicateFramesDropped.add(data.parts());
            // a sender replaying from an older position holds credit for frames we already have: tell it
            scheduleAck();
            return;
        }
        if (data.firstSeq() > expected) {
            metrics.outOfOrderFramesDropped.add(data.parts());
            // one reply per gap position and interval, not one per dropped frame of the same burst
            if (lastGapReplyExpected != expected || nowNanos - lastGapReplyNanos >= resyncNanos) {
                lastGapReplyExpected = expected;
                lastGapReplyNanos = nowNanos;
                log.debug("Channel {}: frame {}..{} leaves a gap after {}, asking the sender to rewind",
                        id, data.firstSeq(), data.lastSeq(), lastDeliveredSeq);
                sendPosition(MessageType.SYNC_REPLY);
            }
            return;
        }
        int skip = (int) (expected - data.firstSeq());
        lastDeliveredSeq = data.lastSeq();
        DeliveredFrame frame = new DeliveredFrame(this, data.firstSeq(), data.eventCount(), data.payload(), skip,
                data.partEnds());
        try {
            listener.onFrame(frame);
        } catch (RuntimeException e) {
            log.error("Listener of channel {} threw on {}; the frame counts as delivered. Listeners must hand "
                    + "frames off and not throw", id, frame, e);
        }
    }

    /** A frame of no events is delivered only right after the event it follows; otherwise it is stale or early. */
    private void onUnsequenced(WireMessage.Data data) {
        if (data.firstSeq() != lastDeliveredSeq + 1) {
            metrics.unsequencedFramesDropped.increment();
            return;
        }
        DeliveredFrame frame = new DeliveredFrame(this, data.firstSeq(), 0, data.payload(), 0, null);
        try {
            listener.onFrame(frame);
        } catch (RuntimeException e) {
            log.error("Listener of channel {} threw on {}; listeners must hand frames off and not throw", id, frame, e);
        }
    }

    void onSync(byte[] routingId) {
        log.trace("Channel {}: SYNC received, delivered up to {}", id, lastDeliveredSeq);
        senderRoutingId = routingId;
        sendPosition(MessageType.SYNC_REPLY);
    }

    /** Sends the deferred ACK, if any. IO thread, every timer pass. */
    void onTimer() {
        if (ackDeferred) {
            sendAck();
        }
    }

    private void sendAck() {
        // cleared before the position is read: consumption recorded after this point sets them again
        ackScheduled.set(false);
        ackDeferred = false;
        unackedFrames.set(0);
        if (!closed) {
            sendPosition(MessageType.ACK);
        }
    }

    private static int ackThreshold(int credit) {
        return Math.max(1, credit / 4);
    }

    /**
     * Frames the sender may have unconsumed: {@code creditFrames}, or with a window in bytes as many frames of the
     * average size as fit in it (between {@code creditFrames} and {@link DataPlaneConfig#MAX_CREDIT_FRAMES}).
     */
    int grantedCredit() {
        if (creditBytes == 0) {
            return creditFrames;
        }
        double fit = creditBytes / Math.max(1.0, averageFrameBytes);
        return (int) Math.max(creditFrames, Math.min(DataPlaneConfig.MAX_CREDIT_FRAMES, fit));
    }

    private void sendPosition(MessageType type) {
        if (senderRoutingId == null) {
            return; // no sender has spoken yet; its SYNC will ask
        }
        long consumed = Math.min(consumedSeq.get(), lastDeliveredSeq);
        int credit = grantedCredit();
        ackEveryFrames = ackThreshold(credit);
        byte[] message = codec.encodePosition(type, id, lastDeliveredSeq, consumed, credit);
        loop.replyToSender(senderRoutingId, message);
        metrics.acksSent.increment();
    }
}
