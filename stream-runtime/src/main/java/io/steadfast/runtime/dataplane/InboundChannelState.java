package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.Arrays;
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
 * have given, while a channel of a few frames a second does not cost an ACK and a wake-up per frame (with many
 * channels, that would be as many messages as the frames themselves).
 *
 * <p>A {@link MessageType#BUNDLE} is delivered as one frame but counts as the frames it carries, for the window, the
 * ACKs and the average frame size alike, as it does for its sender.
 *
 * <p><b>Damage.</b> A message damaged on its way never reaches this class: {@link FrameCodec} rejects it before any
 * field is used, so the position stays where it was and the sender resends. The IO loop tells the channel the damaged
 * message most likely belonged to ({@link #onDamaged}), which answers its sender with a SYNC_REPLY at once (rate
 * limited with the replies to gaps), rather than waiting for the next frame to leave a gap or for the sender's resync.
 *
 * <p><b>Incarnations.</b> DATA, BUNDLE and SYNC carry the sending task's incarnation. Those below
 * {@code minSenderIncarnation} are dropped and counted before anything else: never delivered, never answered, and
 * they do not take over the sender's routing id (so a stale sender never steals the ACKs). One of a higher
 * incarnation raises the minimum to it: a newer sender took over, the older one is refused from then on, and the newer
 * one is answered with a SYNC_REPLY so that it resends from this receiver's position. {@link #fence} raises the minimum
 * from outside. ACK and SYNC_REPLY carry {@code receiverIncarnation}.
 */
final class InboundChannelState {

    private static final Logger log = LoggerFactory.getLogger(InboundChannelState.class);

    /** What the fencing rules make of a message from a sending task. */
    private enum Admission {
        /** Of a superseded incarnation: dropped. */
        REFUSED,
        /** Of the minimum incarnation. */
        ADMITTED,
        /** Of a newer incarnation, which raised the minimum. */
        TOOK_OVER
    }

    private final ChannelId id;
    private final int receiverIncarnation;
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
    /** The incarnation of the sender {@code senderRoutingId} belongs to; -1 when none. */
    private int senderIncarnation = -1;
    private int minSenderIncarnation;
    private long lastGapReplyExpected = -1;
    private long lastGapReplyNanos;
    /** Moving average of the sizes of the data frames received, for a window in bytes. */
    private double averageFrameBytes;

    /**
     * @param receiverIncarnation  the receiving task's incarnation (>= 0), written on every ACK and SYNC_REPLY
     * @param minSenderIncarnation messages of sending tasks below this incarnation (>= 0) are refused
     * @param context              the data plane's; of its configuration, the window and the resync interval
     */
    InboundChannelState(ChannelId id, long lastDeliveredSeq, int receiverIncarnation, int minSenderIncarnation,
            InboundListener listener, ChannelContext context) {
        if (lastDeliveredSeq < 0) {
            throw new IllegalArgumentException("lastDeliveredSeq of channel " + id + " must be >= 0, was "
                    + lastDeliveredSeq);
        }
        if (receiverIncarnation < 0 || minSenderIncarnation < 0) {
            throw new IllegalArgumentException("incarnations of channel " + id + " must be >= 0, were receiver "
                    + receiverIncarnation + " and minimum sender " + minSenderIncarnation);
        }
        this.id = id;
        this.receiverIncarnation = receiverIncarnation;
        this.minSenderIncarnation = minSenderIncarnation;
        this.listener = listener;
        this.loop = context.loop();
        this.codec = context.codec();
        this.metrics = context.metrics();
        DataPlaneConfig config = context.config();
        this.creditFrames = config.creditFrames();
        this.creditBytes = config.creditBytes();
        this.averageFrameBytes = creditBytes > 0 ? (double) creditBytes / creditFrames : 0;
        this.resyncNanos = config.resyncInterval().toNanos();
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
        Admission admission = admit(routingId, data.senderIncarnation(), data.parts() == 1 ? "DATA" : "BUNDLE",
                nowNanos);
        if (admission == Admission.REFUSED) {
            return;
        }
        if (data.eventCount() == 0) {
            onUnsequenced(data);
        } else {
            onEvents(data, nowNanos);
        }
        if (admission == Admission.TOOK_OVER) {
            sendPosition(MessageType.SYNC_REPLY); // the new sender resends from here, whatever it sent first
        }
    }

    /**
     * Applies the fencing rules to a message from a sending task of {@code incarnation} (see the class comment); an
     * admitted sender is the one ACKs go to from now on.
     */
    private Admission admit(byte[] routingId, int incarnation, String what, long nowNanos) {
        if (incarnation < minSenderIncarnation) {
            metrics.fencedMessagesDropped.increment();
            loop.warnFenced(nowNanos, "Channel {}: dropped {} from sender incarnation {}: superseded, this receiver "
                    + "(incarnation {}) takes sender incarnation {} or later only", id, what, incarnation,
                    receiverIncarnation, minSenderIncarnation);
            return Admission.REFUSED;
        }
        Admission admission = Admission.ADMITTED;
        if (incarnation > minSenderIncarnation) {
            log.info("Channel {}: sender incarnation {} takes over from incarnation {}; messages of earlier "
                    + "incarnations are refused from now on", id, incarnation, minSenderIncarnation);
            minSenderIncarnation = incarnation;
            admission = Admission.TOOK_OVER;
        }
        senderRoutingId = routingId;
        senderIncarnation = incarnation;
        return admission;
    }

    private void onEvents(WireMessage.Data data, long nowNanos) {
        long expected = lastDeliveredSeq + 1;
        averageFrameBytes += ((double) data.payload().length / data.parts() - averageFrameBytes) / 16;
        if (data.lastSeq() < expected) {
            metrics.duplicateFramesDropped.add(data.parts());
            // a sender replaying from an older position holds credit for frames we already have: tell it
            scheduleAck();
            return;
        }
        if (data.firstSeq() > expected) {
            metrics.outOfOrderFramesDropped.add(data.parts());
            if (askToRewind(nowNanos)) {
                log.debug("Channel {}: frame {}..{} leaves a gap after {}, asking the sender to rewind",
                        id, data.firstSeq(), data.lastSeq(), lastDeliveredSeq);
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

    /**
     * Answers the SYNC of a sending task of {@code senderIncarnation} with the position, unless that incarnation is
     * superseded.
     */
    void onSync(byte[] routingId, int senderIncarnation, long nowNanos) {
        if (closed || admit(routingId, senderIncarnation, "SYNC", nowNanos) == Admission.REFUSED) {
            return;
        }
        log.trace("Channel {}: SYNC received from sender incarnation {}, delivered up to {}", id, senderIncarnation,
                lastDeliveredSeq);
        sendPosition(MessageType.SYNC_REPLY);
    }

    /**
     * A message that most likely belongs to this channel arrived damaged, or malformed, from {@code routingId}, and
     * was dropped: if it came from this channel's sender, asks it to resend from the position at once (rate limited
     * as the replies to gaps are). Nothing of the message is trusted, its incarnation included.
     */
    void onDamaged(byte[] routingId, long nowNanos) {
        if (closed || senderRoutingId == null || !Arrays.equals(routingId, senderRoutingId)) {
            return;
        }
        if (askToRewind(nowNanos)) {
            log.debug("Channel {}: a damaged message from its sender was dropped; asking it to resend after {}", id,
                    lastDeliveredSeq);
        }
    }

    /**
     * Sends a SYNC_REPLY so that the sender resends after the position: one per position and resync interval, not
     * one per dropped frame of the same burst.
     *
     * @return whether one was sent
     */
    private boolean askToRewind(long nowNanos) {
        long expected = lastDeliveredSeq + 1;
        if (lastGapReplyExpected == expected && nowNanos - lastGapReplyNanos < resyncNanos) {
            return false;
        }
        lastGapReplyExpected = expected;
        lastGapReplyNanos = nowNanos;
        sendPosition(MessageType.SYNC_REPLY);
        return true;
    }

    /**
     * Refuses messages of sending tasks below incarnation {@code minimum} from now on; never lowers the minimum. If
     * the sender this channel answers is superseded, ACKs wait until the new one speaks.
     */
    void fence(int minimum) {
        if (minimum <= minSenderIncarnation) {
            return;
        }
        log.debug("Channel {}: fenced at sender incarnation {} (was {})", id, minimum, minSenderIncarnation);
        minSenderIncarnation = minimum;
        if (senderIncarnation < minimum) {
            senderRoutingId = null;
            senderIncarnation = -1;
        }
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
        byte[] message = codec.encodePosition(type, id, receiverIncarnation, lastDeliveredSeq, consumed, credit);
        loop.replyToSender(senderRoutingId, message);
        metrics.acksSent.increment();
    }
}
