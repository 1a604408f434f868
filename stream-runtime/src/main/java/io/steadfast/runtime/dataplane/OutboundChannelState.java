package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of one channel: sequence numbering and credit on the producer side, the retained frames, the
 * resync protocol and the pacing of resends on the IO side.
 *
 * <p>Fields are split by owner. The producer thread writes {@code nextSeq} and the frames handed over of its
 * {@link SenderCredit}, and owns the preload fields; the IO thread writes the credit's frames released and window and
 * {@code acknowledgedSeq}, and owns everything else not volatile, so the hot path takes no lock.
 * Until the receiver first answers, the credit is the least window any receiver grants ({@code creditFrames} of the
 * data plane's configuration; a window in bytes grants no fewer): the frames wait in the log and go out once it
 * answers. A task whose receivers are being recovered on other hosts produces meanwhile — a recovered source
 * regenerates its output while the hosts of its recovered receivers are still creating them, instead of waiting for
 * the slowest of them, which with tens of recovered tasks would be the longest wait of a recovery.
 *
 * <p>A sender restored elsewhere may preload the log its predecessor shipped: those frames are replayed like sent
 * ones but release no credit, and the producer's own frames that end within them are dropped before they are handed
 * over.
 *
 * <p>The IO side keeps every frame it may have to send again in a {@link ResendLog}, with three cursors (frame
 * numbers) of its own: {@code sendNext}, the next frame to transmit to the current receiver; {@code receiverConsumed},
 * the first frame the current receiver has not reported consumed; and {@code firstUnsent}, the first frame never
 * transmitted (it never moves back). Transmission runs ahead of the receiver's consumption by at most the receiver's
 * credit, so a receiver restored at an older position is replayed to at its own pace.
 *
 * <p><b>Incarnations.</b> Every message the channel sends carries the sending task's incarnation, fixed for the
 * channel's life (a recovered task opens its channels anew). Positions (ACK, SYNC_REPLY) carry the receiving task's;
 * those of an incarnation below {@code minReceiverIncarnation} are dropped and counted: a receiver that was replaced
 * must not move this sender's positions. A position from a newer receiver raises the minimum by itself; an ACK from
 * a newer receiver than the one whose position this sender holds (a receiver recovered in place, on the same
 * endpoint) is not applied but answered with a SYNC, so that the sender resends from the new receiver's position.
 */
final class OutboundChannelState implements OutboundChannel {

    private static final Logger log = LoggerFactory.getLogger(OutboundChannelState.class);

    private final ChannelId id;
    private final int incarnation;
    private final IoLoop loop;
    private final FrameCodec codec;
    private final DataPlaneMetrics metrics;
    private final long resyncNanos;
    private final Retention retention;
    private final OutputLogs outputLogs;
    private final SenderCredit credit;
    private final RetainedLogSize retainedSize;
    private final ChannelTransmitter transmitter;

    // producer side (single writer)
    private volatile long nextSeq;
    private long preloadedUpToSeq;
    private boolean sentAny;
    // IO side, read by the producer
    private volatile long acknowledgedSeq;
    private volatile boolean closed;

    // IO thread only
    private final ResendLog resendLog;
    private final FrameLog frames;
    private long sendNext;
    private long receiverConsumed;
    private long firstUnsent;
    private long receiverDelivered;
    private long receiverConsumedSeq;
    private boolean synced;
    private long lastHeardNanos;
    private long lastSyncSentNanos;
    /** Positions of a receiver incarnation below this are refused. */
    private int minReceiverIncarnation;
    /** The incarnation of the receiver whose position this sender holds; -1 before any position. */
    private int receiverIncarnation = -1;

    /**
     * @param incarnation the sending task's incarnation (>= 0), written on every message
     * @param context     the data plane's; of its configuration, the resync interval and the frames the producer may
     *                    hand over before the receiver first answers ({@link DataPlaneConfig#creditFrames()})
     */
    OutboundChannelState(ChannelId id, int incarnation, long nextSeq, Retention retention, ChannelContext context) {
        if (nextSeq < 1) {
            throw new IllegalArgumentException("nextSeq of channel " + id + " must be >= 1, was " + nextSeq);
        }
        if (incarnation < 0) {
            throw new IllegalArgumentException("incarnation of channel " + id + " must be >= 0, was " + incarnation);
        }
        this.id = id;
        this.incarnation = incarnation;
        this.nextSeq = nextSeq;
        this.acknowledgedSeq = nextSeq - 1;
        this.loop = context.loop();
        this.codec = context.codec();
        this.metrics = context.metrics();
        this.resyncNanos = context.config().resyncInterval().toNanos();
        this.retention = Objects.requireNonNull(retention, "retention");
        this.outputLogs = context.outputLogs();
        this.credit = new SenderCredit(id, context.config().creditFrames());
        this.retainedSize = new RetainedLogSize(metrics);
        this.transmitter = new ChannelTransmitter(id, incarnation, codec, metrics);
        this.resendLog = new ResendLog(id, incarnation, retention, outputLogs, credit, retainedSize);
        this.frames = resendLog.frames();
    }

    // ---------------------------------------------------------------- producer thread

    @Override
    public void send(byte[] payload, int eventCount) {
        Objects.requireNonNull(payload, "payload");
        if (eventCount < 0) {
            throw new IllegalArgumentException("eventCount must be >= 0 on channel " + id + ", was " + eventCount);
        }
        if (payload.length > codec.maxFrameBytes()) {
            throw new IllegalArgumentException("Frame of " + payload.length + " bytes on channel " + id
                    + " exceeds maxFrameBytes " + codec.maxFrameBytes() + "; send fewer events per frame");
        }
        if (closed) {
            throw new IllegalStateException("Outbound channel " + id + " is closed");
        }
        long first = nextSeq;
        if (first > Long.MAX_VALUE - eventCount) {
            throw new IllegalStateException("Sequence numbers of channel " + id + " would overflow");
        }
        sentAny = true;
        if (eventCount > 0 && first + eventCount - 1 <= preloadedUpToSeq) {
            nextSeq = first + eventCount; // regenerated: the preloaded log holds these events already
            metrics.preloadedFramesRegenerated.increment();
            return;
        }
        if (eventCount == 0) {
            RetainedFrame unsequenced = new RetainedFrame(first, 0, codec.encodeDataHeader(id, incarnation, first, 0,
                    payload), payload);
            loop.submit(() -> onUnsequenced(unsequenced));
            return;
        }
        if (!credit.available()) {
            metrics.framesSentBeyondCredit.increment();
        }
        nextSeq = first + eventCount;
        credit.handedOver();
        RetainedFrame frame = new RetainedFrame(first, eventCount,
                codec.encodeDataHeader(id, incarnation, first, eventCount, payload), payload);
        loop.submit(() -> onHandedOver(frame));
    }

    @Override
    public boolean hasCredit() {
        return credit.availableOrWait();
    }

    @Override
    public void onCreditAvailable(Runnable wakeUp) {
        credit.onAvailable(wakeUp);
    }

    @Override
    public long nextSeq() {
        return nextSeq;
    }

    @Override
    public long acknowledgedSeq() {
        return acknowledgedSeq;
    }

    @Override
    public void redirect(String newPeerEndpoint) {
        Objects.requireNonNull(newPeerEndpoint, "newPeerEndpoint");
        if (closed) {
            throw new IllegalStateException("Outbound channel " + id + " is closed");
        }
        loop.submit(() -> loop.redirectOutbound(this, newPeerEndpoint));
    }

    @Override
    public void truncateLog(long upToSeq) {
        if (retention == Retention.UNTIL_TRUNCATED && !closed) {
            loop.submit(() -> onTruncate(upToSeq));
        }
    }

    @Override
    public void preloadLog(List<LogSegment> segments) {
        Objects.requireNonNull(segments, "segments");
        if (closed) {
            throw new IllegalStateException("Outbound channel " + id + " is closed");
        }
        if (retention != Retention.UNTIL_TRUNCATED) {
            throw new IllegalStateException("Outbound channel " + id + " keeps no output log (Retention."
                    + retention + "); open it with Retention.UNTIL_TRUNCATED to preload one");
        }
        if (sentAny) {
            throw new IllegalStateException("Outbound channel " + id + " has sent already; preload its log before "
                    + "the first send");
        }
        PreloadedFrames preloaded = PreloadedFrames.select(id, incarnation, segments,
                Math.max(nextSeq, preloadedUpToSeq + 1), outputLogs.segmentCodec());
        if (!preloaded.frames().isEmpty()) {
            preloadedUpToSeq = preloaded.lastSeq();
            loop.submit(() -> onPreloaded(preloaded.frames()));
        }
    }

    @Override
    public ChannelId id() {
        return id;
    }

    @Override
    public int retainedFrames() {
        return retainedSize.frames();
    }

    @Override
    public long retainedBytes() {
        return retainedSize.bytes();
    }

    @Override
    public long spilledBytes() {
        return retainedSize.spilledBytes();
    }

    /** The most frames this channel ever retained at once. */
    int maxRetainedFrames() {
        return retainedSize.maxFrames();
    }

    void markClosed() {
        closed = true;
    }

    // ---------------------------------------------------------------- IO thread

    /** Attaches the channel to a peer and asks the receiver for its position. */
    void connectTo(PeerConnection newPeer, long nowNanos) {
        transmitter.sendTo(newPeer);
        this.synced = false;
        sendSync(nowNanos);
    }

    PeerConnection peer() {
        return transmitter.peer();
    }

    /** Sends a frame of no events now if the receiver is in sync; never retained (see {@link #send}). */
    private void onUnsequenced(RetainedFrame frame) {
        if (closed || !synced || sendNext < frames.end()) {
            return; // not in sync, or behind on resends: the receiver would drop it as not following
        }
        transmitter.frame(frame, true);
    }

    private void onHandedOver(RetainedFrame frame) {
        if (closed) {
            return;
        }
        resendLog.append(frame);
        afterAppend();
    }

    /** Frames shipped by this channel's predecessor: replayed, not shipped again, releasing no credit. */
    private void onPreloaded(List<RetainedFrame> preloaded) {
        if (closed) {
            return;
        }
        resendLog.appendPreloaded(preloaded);
        afterAppend();
    }

    private void afterAppend() {
        // a restored sender regenerates frames its receiver already consumed: they need no credit
        advanceCursors();
        dropUnneeded();
        pump();
        resendLog.spillOverBound(); // after pump, so that a new frame goes out from memory when the receiver has credit
        resendLog.publishSize();
        credit.wakeProducerIfAvailable();
        // not synced: the frame goes out with the resend that follows the SYNC_REPLY
    }

    /** Applies an ACK or SYNC_REPLY from the receiver, unless it comes from a superseded receiver incarnation. */
    void onPosition(WireMessage.Position position, long nowNanos) {
        int from = position.receiverIncarnation();
        if (from < minReceiverIncarnation) {
            metrics.fencedMessagesDropped.increment();
            loop.warnFenced(nowNanos, "Channel {}: dropped {} from receiver incarnation {} at {}: superseded, "
                    + "this sender takes positions of incarnation {} or later only", id, position.type(), from,
                    peer().endpoint(), minReceiverIncarnation);
            return;
        }
        minReceiverIncarnation = from; // >= the minimum: a newer receiver answered, its predecessors are superseded
        lastHeardNanos = nowNanos;
        if (from > receiverIncarnation && receiverIncarnation >= 0 && position.type() == MessageType.ACK) {
            log.debug("Channel {}: receiver incarnation {} at {} replaced incarnation {}; asking for its position",
                    id, from, peer().endpoint(), receiverIncarnation);
            receiverIncarnation = from;
            synced = false;
            sendSync(nowNanos);
            return;
        }
        receiverIncarnation = from;
        credit.grant(position.creditFrames());
        if (position.consumedSeq() > acknowledgedSeq) {
            acknowledgedSeq = position.consumedSeq();
        }
        if (position.type() == MessageType.SYNC_REPLY) {
            if (!synced) {
                log.debug("Channel {} synchronised with {}: receiver delivered up to {}, consumed up to {}",
                        id, peer().endpoint(), position.deliveredSeq(), position.consumedSeq());
            }
            synced = true;
            resendLog.warnIfCannotResendAfter(position.deliveredSeq(), peer().endpoint());
            // a receiver restored elsewhere may stand before what this one consumed: rewind both cursors
            receiverConsumed = Math.max(frames.first(), frames.firstAfter(position.consumedSeq()));
            receiverConsumedSeq = position.consumedSeq();
            sendNext = Math.max(frames.first(), frames.firstAfter(position.deliveredSeq()));
            receiverDelivered = position.deliveredSeq();
        } else {
            receiverConsumedSeq = Math.max(receiverConsumedSeq, position.consumedSeq());
            receiverDelivered = Math.max(receiverDelivered, position.deliveredSeq());
        }
        advanceCursors();
        dropUnneeded();
        pump();
        credit.wakeProducerIfAvailable();
    }

    /**
     * Refuses positions of receiver incarnations below {@code minimum} from now on; never lowers the minimum. If the
     * position this sender holds came from a superseded receiver, it asks for the current one's (SYNC) and sends
     * nothing more until that answers.
     */
    void fence(int minimum, long nowNanos) {
        if (minimum <= minReceiverIncarnation) {
            return;
        }
        minReceiverIncarnation = minimum;
        if (receiverIncarnation >= 0 && receiverIncarnation < minimum && !closed) {
            log.debug("Channel {}: receiver incarnation {} superseded by {}; resynchronising with {}", id,
                    receiverIncarnation, minimum, peer().endpoint());
            synced = false;
            sendSync(nowNanos);
        }
    }

    /** Moves the consumed and released cursors past frames whose events the receiver has consumed. */
    private void advanceCursors() {
        long end = frames.end();
        while (receiverConsumed < end && frames.lastSeq(receiverConsumed) <= receiverConsumedSeq) {
            receiverConsumed++;
        }
        resendLog.release(acknowledgedSeq);
    }

    private void onTruncate(long upToSeq) {
        resendLog.truncate(upToSeq);
        dropUnneeded();
    }

    /** Drops the frames no longer needed (see {@link ResendLog#dropUnneeded}); the cursors follow the first one. */
    private void dropUnneeded() {
        if (resendLog.dropUnneeded()) {
            sendNext = Math.max(sendNext, frames.first());
            receiverConsumed = Math.max(receiverConsumed, frames.first());
        }
    }

    /**
     * Transmits frames from {@code sendNext} while the receiver has credit for them, consecutive ones together as a
     * {@link FrameBundle}; stops at the socket's high-water mark (the next position report or timer tries again).
     * Frames the receiver already has (a restored sender regenerating what it sent before) are passed over.
     */
    private void pump() {
        if (!synced) {
            return;
        }
        while (sendNext < frames.end() && frames.lastSeq(sendNext) <= receiverDelivered) {
            sendNext++;
        }
        int window = credit.window();
        while (sendNext < frames.end() && sendNext - receiverConsumed < window) {
            int ready = (int) Math.min(frames.end() - sendNext, window - (sendNext - receiverConsumed));
            FrameBundle bundle;
            try {
                bundle = FrameBundle.gather(frames, sendNext, Math.min(ready, bundleFrames(window)),
                        Math.min(FrameBundle.MAX_BYTES, codec.maxFrameBytes()));
            } catch (IOException e) {
                outputLogs.spillFailed(id, "read frame " + sendNext + " back from its spill file", "it is sent "
                        + "once a later attempt succeeds", e);
                return; // the next timer or position report tries again
            }
            boolean sent = bundle.size() == 1 ? transmitter.frame(bundle.first(), sendNext >= firstUnsent)
                    : transmitter.bundle(bundle, (int) Math.max(0, Math.min(bundle.size(),
                            sendNext + bundle.size() - firstUnsent)));
            if (!sent) {
                return;
            }
            sendNext += bundle.size();
            firstUnsent = Math.max(firstUnsent, sendNext);
        }
    }

    /**
     * The most frames one bundle carries: a quarter of the receiver's window, so that several bundles are in flight
     * and the receiver's ACK after each (it acknowledges every quarter window consumed) keeps the sender going.
     */
    private static int bundleFrames(int window) {
        return Math.max(2, Math.min(FrameCodec.MAX_BUNDLE_PARTS, window / 4));
    }

    /**
     * Sends SYNC when the receiver's position is unknown, or frames it has not consumed exist and it has been
     * silent; otherwise retries a transmission the high-water mark stopped.
     */
    void onTimer(long nowNanos) {
        resendLog.onTimer();
        if (synced && receiverConsumed >= frames.end()) {
            return;
        }
        long quietSince = Math.max(lastHeardNanos, lastSyncSentNanos);
        if (nowNanos - quietSince >= resyncNanos) {
            sendSync(nowNanos);
        } else {
            pump();
        }
    }

    private void sendSync(long nowNanos) {
        lastSyncSentNanos = nowNanos;
        transmitter.sync(nextSeq);
    }

    /** Drops every retained frame and deletes its spill files; the channel is gone. */
    void discardRetained() {
        resendLog.discard();
    }
}
