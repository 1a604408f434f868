package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of one channel: sequence numbering and credit on the producer side, the retained frames and
 * the resync protocol on the IO side.
 *
 * <p>Fields are split by owner. The producer thread writes {@code nextSeq} and {@code framesHandedOver}; the IO
 * thread writes {@code framesReleased}, {@code creditFrames} and {@code acknowledgedSeq} and owns everything not
 * volatile. Credit is computed from the two counters, so the hot path takes no lock.
 */
final class OutboundChannelState implements OutboundChannel {

    private static final Logger log = LoggerFactory.getLogger(OutboundChannelState.class);

    private final ChannelId id;
    private final IoLoop loop;
    private final FrameCodec codec;
    private final DataPlaneMetrics metrics;
    private final long resyncNanos;

    // producer side (single writer)
    private volatile long nextSeq;
    private volatile long framesHandedOver;
    // IO side, read by the producer
    private volatile long framesReleased;
    private volatile int creditFrames;
    private volatile long acknowledgedSeq;
    private volatile int retainedFrameCount;
    private volatile int maxRetainedFrameCount;
    private volatile boolean closed;
    private final AtomicBoolean producerWaiting = new AtomicBoolean();
    private volatile Runnable creditListener = () -> { };

    // IO thread only
    private final ArrayDeque<RetainedFrame> retained = new ArrayDeque<>();
    private long retainedBytes;
    private PeerConnection peer;
    private boolean synced;
    private long lastHeardNanos;
    private long lastSyncSentNanos;
    private boolean warnedUnrecoverableGap;

    OutboundChannelState(ChannelId id, long nextSeq, IoLoop loop, FrameCodec codec, DataPlaneMetrics metrics,
            long resyncNanos) {
        if (nextSeq < 1) {
            throw new IllegalArgumentException("nextSeq of channel " + id + " must be >= 1, was " + nextSeq);
        }
        this.id = id;
        this.nextSeq = nextSeq;
        this.acknowledgedSeq = nextSeq - 1;
        this.loop = loop;
        this.codec = codec;
        this.metrics = metrics;
        this.resyncNanos = resyncNanos;
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
        if (eventCount == 0) {
            RetainedFrame unsequenced = new RetainedFrame(first, 0, codec.encodeDataHeader(id, first, 0,
                    payload.length), payload);
            loop.submit(() -> onUnsequenced(unsequenced));
            return;
        }
        if (!creditAvailable()) {
            metrics.framesSentBeyondCredit.increment();
        }
        nextSeq = first + eventCount;
        framesHandedOver = framesHandedOver + 1;
        RetainedFrame frame = new RetainedFrame(first, eventCount,
                codec.encodeDataHeader(id, first, eventCount, payload.length), payload);
        loop.submit(() -> onHandedOver(frame));
    }

    @Override
    public boolean hasCredit() {
        if (creditAvailable()) {
            return true;
        }
        producerWaiting.set(true);
        // re-check: the IO thread may have released credit before it could see the flag
        return creditAvailable();
    }

    private boolean creditAvailable() {
        return framesHandedOver - framesReleased < creditFrames;
    }

    @Override
    public void onCreditAvailable(Runnable wakeUp) {
        this.creditListener = Objects.requireNonNull(wakeUp, "wakeUp");
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
    public ChannelId id() {
        return id;
    }

    /** Frames sent and not yet reported consumed (visible to tests and gauges). */
    int retainedFrames() {
        return retainedFrameCount;
    }

    /** The most frames this channel ever retained at once. */
    int maxRetainedFrames() {
        return maxRetainedFrameCount;
    }

    void markClosed() {
        closed = true;
    }

    // ---------------------------------------------------------------- IO thread

    /** Attaches the channel to a peer and asks the receiver for its position. */
    void connectTo(PeerConnection newPeer, long nowNanos) {
        this.peer = newPeer;
        this.synced = false;
        sendSync(nowNanos);
    }

    PeerConnection peer() {
        return peer;
    }

    /** Sends a frame of no events now if the receiver is in sync; never retained (see {@link #send}). */
    private void onUnsequenced(RetainedFrame frame) {
        if (closed || !synced) {
            return;
        }
        transmit(frame);
    }

    private void onHandedOver(RetainedFrame frame) {
        if (closed) {
            return;
        }
        retained.addLast(frame);
        retainedBytes += frame.payload.length;
        metrics.retainedFrames.incrementAndGet();
        metrics.retainedBytes.addAndGet(frame.payload.length);
        retainedFrameCount = retained.size();
        if (retained.size() > maxRetainedFrameCount) {
            maxRetainedFrameCount = retained.size();
        }
        if (synced) {
            transmit(frame);
        }
        // not synced: the frame goes out with the resend that follows the SYNC_REPLY
    }

    /** Applies an ACK or SYNC_REPLY from the receiver. */
    void onPosition(WireMessage.Position position, long nowNanos) {
        lastHeardNanos = nowNanos;
        release(position.consumedSeq());
        creditFrames = position.creditFrames();
        if (position.type() == MessageType.SYNC_REPLY) {
            if (!synced) {
                log.debug("Channel {} synchronised with {}: receiver delivered up to {}, consumed up to {}",
                        id, peer.endpoint(), position.deliveredSeq(), position.consumedSeq());
            }
            synced = true;
            resendAfter(position.deliveredSeq());
        }
        if (creditAvailable() && producerWaiting.getAndSet(false)) {
            notifyCreditListener();
        }
    }

    private void release(long consumedSeq) {
        if (consumedSeq > acknowledgedSeq) {
            acknowledgedSeq = consumedSeq;
        }
        long released = 0;
        while (!retained.isEmpty() && retained.peekFirst().lastSeq() <= consumedSeq) {
            RetainedFrame frame = retained.pollFirst();
            retainedBytes -= frame.payload.length;
            metrics.retainedBytes.addAndGet(-frame.payload.length);
            released++;
        }
        if (released > 0) {
            metrics.retainedFrames.addAndGet(-released);
            retainedFrameCount = retained.size();
            framesReleased = framesReleased + released;
        }
    }

    private void resendAfter(long deliveredSeq) {
        RetainedFrame first = retained.peekFirst();
        if (first != null && first.firstSeq > deliveredSeq + 1 && !warnedUnrecoverableGap) {
            warnedUnrecoverableGap = true;
            log.error("Channel {}: receiver at {} has delivered up to seq {} but this sender only retains from seq {};"
                    + " events {}..{} cannot be resent. Reopen the sender from an earlier position (replay).",
                    id, peer.endpoint(), deliveredSeq, first.firstSeq, deliveredSeq + 1, first.firstSeq - 1);
        }
        for (RetainedFrame frame : retained) {
            if (frame.lastSeq() > deliveredSeq && !transmit(frame)) {
                return; // high-water mark: the next sync resends the rest
            }
        }
    }

    private boolean transmit(RetainedFrame frame) {
        if (!peer.sendData(frame)) {
            metrics.framesNotSent.increment();
            return false;
        }
        if (frame.sentOnce) {
            metrics.framesResent.increment();
        } else {
            frame.sentOnce = true;
            metrics.framesSent.increment();
        }
        metrics.bytesSent.add(frame.wireBytes());
        return true;
    }

    /** Sends SYNC when the receiver's position is unknown or frames are unacknowledged and it has been silent. */
    void onTimer(long nowNanos) {
        if (synced && retained.isEmpty()) {
            return;
        }
        long quietSince = Math.max(lastHeardNanos, lastSyncSentNanos);
        if (nowNanos - quietSince >= resyncNanos) {
            sendSync(nowNanos);
        }
    }

    private void sendSync(long nowNanos) {
        lastSyncSentNanos = nowNanos;
        boolean sent = peer.sendControl(codec.encodeSync(id, nextSeq));
        if (sent) {
            metrics.syncsSent.increment();
        }
        log.trace("Channel {}: SYNC to {} {}", id, peer.endpoint(), sent ? "sent" : "refused");
    }

    /** Drops every retained frame; the channel is gone. */
    void discardRetained() {
        metrics.retainedFrames.addAndGet(-retained.size());
        metrics.retainedBytes.addAndGet(-retainedBytes);
        retained.clear();
        retainedBytes = 0;
        retainedFrameCount = 0;
    }

    private void notifyCreditListener() {
        try {
            creditListener.run();
        } catch (RuntimeException e) {
            log.error("Credit listener of channel {} threw; it must not throw or block", id, e);
        }
    }
}
