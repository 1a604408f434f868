package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of one channel: sequence numbering and credit on the producer side, the retained frames, the
 * resync protocol and the pacing of resends on the IO side.
 *
 * <p>Fields are split by owner. The producer thread writes {@code nextSeq} and {@code framesHandedOver} and owns
 * the preload fields; the IO thread writes {@code framesReleased}, {@code creditFrames} and {@code acknowledgedSeq}
 * and owns everything else not volatile. Credit is computed from the two counters, so the hot path takes no lock.
 * Until the receiver first answers, the credit is the least window any receiver grants ({@code creditFrames} of the
 * data plane's configuration; a window in bytes grants no fewer): the frames wait in the log and go out once it
 * answers. A task whose receivers are being recovered on other hosts produces meanwhile — a recovered source
 * regenerates its output while the hosts of its recovered receivers are still creating them, instead of waiting for
 * the slowest of them, which with tens of recovered tasks was the longest wait of a recovery.
 *
 * <p>A sender restored elsewhere may preload the log its predecessor shipped: those frames are replayed like sent
 * ones, but they were never handed over by this producer, so they release no credit (frame numbers before
 * {@code handedOverFrom}); and the producer's own frames that end within them are dropped before they are
 * handed over.
 *
 * <p>The IO side keeps every frame it may have to send again in a {@link FrameLog}, with four cursors (frame
 * numbers): {@code sendNext}, the next frame to transmit to the current receiver; {@code receiverConsumed}, the
 * first frame the current receiver has not reported consumed; {@code released}, the first frame not yet
 * released for the producer's credit; and {@code firstUnsent}, the first frame never transmitted (the last two
 * never move back). Transmission runs ahead of the receiver's consumption by at most the receiver's credit, so
 * a receiver restored at an older position is replayed to at its own pace. Frames are dropped when consumed, or
 * with {@link Retention#UNTIL_TRUNCATED} when consumed and truncated. An output log beyond its memory bound
 * spills its oldest frames to disk after each append; an IO error there only leaves the frames in memory.
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

    // producer side (single writer)
    private volatile long nextSeq;
    private volatile long framesHandedOver;
    private long preloadedUpToSeq;
    private boolean sentAny;
    // IO side, read by the producer
    private volatile long framesReleased;
    private volatile int creditFrames;
    private volatile long acknowledgedSeq;
    // published by the IO thread for any reader; also the last values added to the data plane's gauges
    private volatile int retainedFrameCount;
    private volatile long retainedByteCount;
    private volatile long spilledByteCount;
    private volatile int maxRetainedFrameCount;
    private volatile boolean closed;
    private final AtomicBoolean producerWaiting = new AtomicBoolean();
    private volatile Runnable creditListener = () -> { };

    // IO thread only
    private final FrameLog frames;
    private final LogShipper shipper;
    private long sendNext;
    private long receiverConsumed;
    private long released;
    private long firstUnsent;
    private long handedOverFrom;
    private long truncatedUpToSeq;
    private long receiverDelivered;
    private long receiverConsumedSeq;
    private PeerConnection peer;
    private boolean synced;
    private long lastHeardNanos;
    private long lastSyncSentNanos;
    private boolean warnedUnrecoverableGap;
    /** Positions of a receiver incarnation below this are refused. */
    private int minReceiverIncarnation;
    /** The incarnation of the receiver whose position this sender holds; -1 before any position. */
    private int receiverIncarnation = -1;

    /**
     * @param incarnation the sending task's incarnation (>= 0), written on every message
     * @param config      the data plane's: the resync interval, and the frames the producer may hand over before the
     *                    receiver first answers ({@link DataPlaneConfig#creditFrames()})
     */
    OutboundChannelState(ChannelId id, int incarnation, long nextSeq, Retention retention, IoLoop loop,
            FrameCodec codec, DataPlaneMetrics metrics, OutputLogs outputLogs, DataPlaneConfig config) {
        if (nextSeq < 1) {
            throw new IllegalArgumentException("nextSeq of channel " + id + " must be >= 1, was " + nextSeq);
        }
        if (incarnation < 0) {
            throw new IllegalArgumentException("incarnation of channel " + id + " must be >= 0, was " + incarnation);
        }
        this.id = id;
        this.incarnation = incarnation;
        this.nextSeq = nextSeq;
        this.creditFrames = config.creditFrames();
        this.acknowledgedSeq = nextSeq - 1;
        this.loop = loop;
        this.codec = codec;
        this.metrics = metrics;
        this.resyncNanos = config.resyncInterval().toNanos();
        this.retention = Objects.requireNonNull(retention, "retention");
        this.outputLogs = outputLogs;
        this.frames = outputLogs.newLog(id, incarnation, retention);
        this.shipper = outputLogs.newShipper(id, incarnation, retention);
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
        if (!creditAvailable()) {
            metrics.framesSentBeyondCredit.increment();
        }
        nextSeq = first + eventCount;
        framesHandedOver = framesHandedOver + 1;
        RetainedFrame frame = new RetainedFrame(first, eventCount,
                codec.encodeDataHeader(id, incarnation, first, eventCount, payload), payload);
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
        return retainedFrameCount;
    }

    @Override
    public long retainedBytes() {
        return retainedByteCount;
    }

    @Override
    public long spilledBytes() {
        return spilledByteCount;
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
        if (closed || !synced || sendNext < frames.end()) {
            return; // not in sync, or behind on resends: the receiver would drop it as not following
        }
        transmit(frame, true);
    }

    private void onHandedOver(RetainedFrame frame) {
        if (closed) {
            return;
        }
        frames.append(frame);
        shipper.logged(frame);
        afterAppend();
    }

    /** Frames shipped by this channel's predecessor: replayed, not shipped again, releasing no credit. */
    private void onPreloaded(List<RetainedFrame> preloaded) {
        if (closed) {
            return;
        }
        preloaded.forEach(frames::append);
        handedOverFrom = frames.end();
        afterAppend();
    }

    private void afterAppend() {
        // a restored sender regenerates frames its receiver already consumed: they need no credit
        advanceCursors();
        dropUnneeded();
        pump();
        spillOverBound(); // after pump, so that a new frame goes out from memory when the receiver has credit
        publishRetained();
        if (creditAvailable() && producerWaiting.getAndSet(false)) {
            notifyCreditListener();
        }
        // not synced: the frame goes out with the resend that follows the SYNC_REPLY
    }

    /** Applies an ACK or SYNC_REPLY from the receiver, unless it comes from a superseded receiver incarnation. */
    void onPosition(WireMessage.Position position, long nowNanos) {
        int from = position.receiverIncarnation();
        if (from < minReceiverIncarnation) {
            metrics.fencedMessagesDropped.increment();
            loop.warnFenced(nowNanos, "Channel {}: dropped {} from receiver incarnation {} at {}: superseded, "
                    + "this sender takes positions of incarnation {} or later only", id, position.type(), from,
                    peer.endpoint(), minReceiverIncarnation);
            return;
        }
        minReceiverIncarnation = from; // >= the minimum: a newer receiver answered, its predecessors are superseded
        lastHeardNanos = nowNanos;
        if (from > receiverIncarnation && receiverIncarnation >= 0 && position.type() == MessageType.ACK) {
            log.debug("Channel {}: receiver incarnation {} at {} replaced incarnation {}; asking for its position",
                    id, from, peer.endpoint(), receiverIncarnation);
            receiverIncarnation = from;
            synced = false;
            sendSync(nowNanos);
            return;
        }
        receiverIncarnation = from;
        creditFrames = position.creditFrames();
        if (position.consumedSeq() > acknowledgedSeq) {
            acknowledgedSeq = position.consumedSeq();
        }
        if (position.type() == MessageType.SYNC_REPLY) {
            if (!synced) {
                log.debug("Channel {} synchronised with {}: receiver delivered up to {}, consumed up to {}",
                        id, peer.endpoint(), position.deliveredSeq(), position.consumedSeq());
            }
            synced = true;
            warnIfUnrecoverable(position.deliveredSeq());
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
        if (creditAvailable() && producerWaiting.getAndSet(false)) {
            notifyCreditListener();
        }
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
                    receiverIncarnation, minimum, peer.endpoint());
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
        long before = released;
        while (released < end && frames.lastSeq(released) <= acknowledgedSeq) {
            released++;
        }
        long handedOverReleased = released - Math.max(before, handedOverFrom);
        if (handedOverReleased > 0) {
            framesReleased = framesReleased + handedOverReleased;
        }
    }

    private void onTruncate(long upToSeq) {
        shipper.truncated(upToSeq);
        truncatedUpToSeq = Math.max(truncatedUpToSeq, upToSeq);
        dropUnneeded();
    }

    /** Drops the oldest frames that are released (consumed) and, when logging, covered by a truncation. */
    private void dropUnneeded() {
        long before = frames.first();
        while (!frames.isEmpty() && frames.first() < released
                && (retention == Retention.UNTIL_CONSUMED || frames.lastSeq(frames.first()) <= truncatedUpToSeq)) {
            frames.removeFirst();
        }
        if (frames.first() > before) {
            sendNext = Math.max(sendNext, frames.first());
            receiverConsumed = Math.max(receiverConsumed, frames.first());
            publishRetained();
        }
    }

    private void warnIfUnrecoverable(long deliveredSeq) {
        if (frames.isEmpty() || warnedUnrecoverableGap) {
            return;
        }
        long oldestSeq = frames.firstSeq(frames.first());
        if (oldestSeq > deliveredSeq + 1) {
            warnedUnrecoverableGap = true;
            log.error("Channel {}: receiver at {} has delivered up to seq {} but this sender only retains from seq {};"
                    + " events {}..{} cannot be resent. Reopen the sender from an earlier position (replay).",
                    id, peer.endpoint(), deliveredSeq, oldestSeq, deliveredSeq + 1, oldestSeq - 1);
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
        while (sendNext < frames.end() && sendNext - receiverConsumed < creditFrames) {
            int ready = (int) Math.min(frames.end() - sendNext, creditFrames - (sendNext - receiverConsumed));
            FrameBundle bundle;
            try {
                bundle = FrameBundle.gather(frames, sendNext, Math.min(ready, bundleFrames()),
                        Math.min(FrameBundle.MAX_BYTES, codec.maxFrameBytes()));
            } catch (IOException e) {
                outputLogs.spillFailed(id, "read frame " + sendNext + " back from its spill file", "it is sent "
                        + "once a later attempt succeeds", e);
                return; // the next timer or position report tries again
            }
            boolean sent = bundle.size() == 1 ? transmit(bundle.first(), sendNext >= firstUnsent)
                    : transmit(bundle);
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
    private int bundleFrames() {
        return Math.max(2, Math.min(FrameCodec.MAX_BUNDLE_PARTS, creditFrames / 4));
    }

    private boolean transmit(RetainedFrame frame, boolean firstTime) {
        if (!peer.sendData(frame)) {
            metrics.framesNotSent.increment();
            return false;
        }
        countSent(1, firstTime ? 1 : 0, frame.wireBytes());
        return true;
    }

    private boolean transmit(FrameBundle bundle) {
        byte[] payload = bundle.payload();
        byte[] header = bundle.header(codec, id, incarnation, payload);
        if (!peer.sendData(header, payload)) {
            metrics.framesNotSent.add(bundle.size());
            return false;
        }
        metrics.bundlesSent.increment();
        long firstTime = Math.max(0, Math.min(bundle.size(), sendNext + bundle.size() - firstUnsent));
        countSent(bundle.size(), (int) firstTime, header.length + payload.length);
        return true;
    }

    private void countSent(int frameCount, int firstTime, long wireBytes) {
        metrics.framesSent.add(firstTime);
        metrics.framesResent.add(frameCount - firstTime);
        metrics.bytesSent.add(wireBytes);
    }

    /**
     * Sends SYNC when the receiver's position is unknown, or frames it has not consumed exist and it has been
     * silent; otherwise retries a transmission the high-water mark stopped.
     */
    void onTimer(long nowNanos) {
        shipper.onTimer();
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
        boolean sent = peer.sendControl(codec.encodeSync(id, incarnation, nextSeq));
        if (sent) {
            metrics.syncsSent.increment();
        }
        log.trace("Channel {}: SYNC to {} {}", id, peer.endpoint(), sent ? "sent" : "refused");
    }

    private void spillOverBound() {
        try {
            frames.spillOverBound();
        } catch (IOException e) {
            outputLogs.spillFailed(id, "spill its output log", "its " + frames.memoryBytes()
                    + " bytes stay in memory", e);
        }
    }

    /** Drops every retained frame and deletes its spill files; the channel is gone. */
    void discardRetained() {
        shipper.discard();
        frames.clear();
        publishRetained();
    }

    /** Publishes the log's size to readers of this channel and adds the change to the data plane's gauges. */
    private void publishRetained() {
        int frameCount = frames.size();
        long byteCount = frames.bytes();
        long spilled = frames.spilledBytes();
        metrics.retainedFrames.addAndGet(frameCount - retainedFrameCount);
        metrics.retainedBytes.addAndGet(byteCount - retainedByteCount);
        if (spilled != spilledByteCount) { // rarely: spare the shared gauge a write on every frame
            metrics.spilledBytes.addAndGet(spilled - spilledByteCount);
            spilledByteCount = spilled;
        }
        retainedFrameCount = frameCount;
        retainedByteCount = byteCount;
        if (frameCount > maxRetainedFrameCount) {
            maxRetainedFrameCount = frameCount;
        }
    }

    private void notifyCreditListener() {
        try {
            creditListener.run();
        } catch (RuntimeException e) {
            log.error("Credit listener of channel {} threw; it must not throw or block", id, e);
        }
    }
}
