package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts one outbound channel's frames, bundles and SYNCs on the socket of the peer it currently sends to, and counts
 * what went out, first time or resent. A send the socket refuses (its high-water mark) is counted as not sent and
 * left to the caller to try again. IO thread only.
 */
final class ChannelTransmitter {

    private static final Logger log = LoggerFactory.getLogger(ChannelTransmitter.class);

    private final ChannelId id;
    private final int incarnation;
    private final FrameCodec codec;
    private final DataPlaneMetrics metrics;
    private PeerConnection peer;

    ChannelTransmitter(ChannelId id, int incarnation, FrameCodec codec, DataPlaneMetrics metrics) {
        this.id = id;
        this.incarnation = incarnation;
        this.codec = codec;
        this.metrics = metrics;
    }

    /** The peer sends go to; null before the channel first connects. */
    PeerConnection peer() {
        return peer;
    }

    void sendTo(PeerConnection newPeer) {
        this.peer = newPeer;
    }

    /** Whether the socket took the frame. */
    boolean frame(RetainedFrame frame, boolean firstTime) {
        if (!peer.sendData(frame)) {
            metrics.framesNotSent.increment();
            return false;
        }
        countSent(1, firstTime ? 1 : 0, frame.wireBytes());
        return true;
    }

    /** Whether the socket took the bundle; {@code firstTimeFrames} of its frames were never sent before. */
    boolean bundle(FrameBundle bundle, int firstTimeFrames) {
        byte[] payload = bundle.payload();
        byte[] header = bundle.header(codec, id, incarnation, payload);
        if (!peer.sendData(header, payload)) {
            metrics.framesNotSent.add(bundle.size());
            return false;
        }
        metrics.bundlesSent.increment();
        countSent(bundle.size(), firstTimeFrames, header.length + payload.length);
        return true;
    }

    /** Asks the receiver for its position; {@code nextSeq} is the producer's next sequence number. */
    void sync(long nextSeq) {
        boolean sent = peer.sendControl(codec.encodeSync(id, incarnation, nextSeq));
        if (sent) {
            metrics.syncsSent.increment();
        }
        log.trace("Channel {}: SYNC to {} {}", id, peer.endpoint(), sent ? "sent" : "refused");
    }

    private void countSent(int frameCount, int firstTime, long wireBytes) {
        metrics.framesSent.add(firstTime);
        metrics.framesResent.add(frameCount - firstTime);
        metrics.bytesSent.add(wireBytes);
    }
}
