package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.ZMQ;

/**
 * Reads what arrived on a data plane's sockets and hands each message to the open channel it names: DATA, BUNDLE and
 * SYNC from senders on the ROUTER, ACK and SYNC_REPLY from receivers on a peer's DEALER. What cannot be delivered
 * (damaged, malformed, for a channel not open here, on the wrong socket) is dropped, counted and logged at a limited
 * rate; a SYNC for a channel not open yet is kept until it opens. IO thread only.
 */
final class IncomingMessages {

    private static final Logger log = LoggerFactory.getLogger(IncomingMessages.class);
    private static final int RECEIVE_BATCH = 256;
    /** Channels whose early SYNC is kept to answer when they open; beyond it the oldest is forgotten. */
    static final int MAX_EARLY_SYNCS = 4096;

    private final FrameCodec codec;
    private final DataPlaneMetrics metrics;
    private final Map<ChannelId, OutboundChannelState> outbound;
    private final Map<ChannelId, InboundChannelState> inbound;
    private final RecentlyClosedChannels recentlyClosed;
    private final Supplier<String> endpointForLog;
    private final RateLimitedWarning droppedFrameWarning = new RateLimitedWarning(log);
    /**
     * The sender of the latest SYNC of the newest sender incarnation that arrived for each channel not open here yet:
     * a sender redirected to a task that is still being restored here is answered the moment its channel opens, not a
     * resync interval later.
     */
    private final Map<ChannelId, EarlySync> earlySyncs = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ChannelId, EarlySync> eldest) {
            return size() > MAX_EARLY_SYNCS;
        }
    };

    /**
     * @param outbound       the sending ends open on the data plane, by channel (the IO loop's own map)
     * @param inbound        the receiving ends open on the data plane, by channel (the IO loop's own map)
     * @param endpointForLog the data plane's endpoint, to name it in log lines
     */
    IncomingMessages(FrameCodec codec, DataPlaneMetrics metrics, Map<ChannelId, OutboundChannelState> outbound,
            Map<ChannelId, InboundChannelState> inbound, RecentlyClosedChannels recentlyClosed,
            Supplier<String> endpointForLog) {
        this.codec = codec;
        this.metrics = metrics;
        this.outbound = outbound;
        this.inbound = inbound;
        this.recentlyClosed = recentlyClosed;
        this.endpointForLog = endpointForLog;
    }

    /** The sender of a SYNC for a channel not open yet, and its incarnation. */
    record EarlySync(byte[] sender, int senderIncarnation) {
    }

    /** The early SYNC kept for a channel that opens now, removed; null if none came. */
    EarlySync takeEarlySync(ChannelId channel) {
        return earlySyncs.remove(channel);
    }

    void forgetEarlySync(ChannelId channel) {
        earlySyncs.remove(channel);
    }

    /** Reads up to {@value #RECEIVE_BATCH} ZeroMQ messages; returns the data plane messages they carried. */
    int readRouter(ZMQ.Socket router) {
        int read = 0;
        for (int n = 0; n < RECEIVE_BATCH; n++) {
            byte[] sender = router.recv(ZMQ.DONTWAIT);
            if (sender == null) {
                break;
            }
            long now = System.nanoTime();
            if (!router.hasReceiveMore()) {
                decode(null, null, now); // counted as malformed: a routing id and no message
            }
            for (; router.hasReceiveMore(); read++) {
                byte[] header = router.recv(0);
                WireMessage message = readMessage(router, header, now);
                if (message != null) {
                    dispatchFromSender(sender, message, now);
                } else {
                    droppedFromSender(sender, header, now);
                }
            }
        }
        return read;
    }

    /** As {@link #readRouter}, for the replies that come back on a peer's DEALER. */
    int readDealer(PeerConnection peer) {
        ZMQ.Socket dealer = peer.socket();
        int read = 0;
        for (int n = 0; n < RECEIVE_BATCH; n++) {
            byte[] header = dealer.recv(ZMQ.DONTWAIT);
            if (header == null) {
                break;
            }
            long now = System.nanoTime();
            WireMessage message = readMessage(dealer, header, now);
            read++;
            while (true) {
                if (message != null) {
                    dispatchFromReceiver(peer, message, now);
                }
                if (!dealer.hasReceiveMore()) {
                    break;
                }
                message = readMessage(dealer, dealer.recv(0), now);
                read++;
            }
        }
        return read;
    }

    /**
     * Decodes the message whose header part was just received, taking its payload part from the socket when the
     * header announces one (see {@link WireBatch}); null if malformed (dropped and counted).
     */
    private WireMessage readMessage(ZMQ.Socket socket, byte[] header, long now) {
        byte[] payload = FrameCodec.announcesPayload(header) && socket.hasReceiveMore() ? socket.recv(0) : null;
        return decode(header, payload, now);
    }

    private WireMessage decode(byte[] header, byte[] payload, long now) {
        metrics.bytesReceived.add((header == null ? 0 : header.length) + (payload == null ? 0 : payload.length));
        try {
            if (header == null) {
                throw new MalformedFrameException(MalformedFrameException.Reason.BAD_PART_COUNT, "no header part");
            }
            return codec.decode(header, payload);
        } catch (MalformedFrameException e) {
            boolean damaged = e.reason() == MalformedFrameException.Reason.BAD_CHECKSUM;
            if (damaged) {
                metrics.corruptFramesDropped.increment();
            } else if (e.reason() == MalformedFrameException.Reason.OVERSIZED) {
                metrics.oversizedFramesDropped.increment();
            } else {
                metrics.malformedFramesDropped.increment();
            }
            ChannelId named = codec.channelNamedBy(header);
            droppedFrameWarning.warn(now, "Data plane {} dropped a {} message{}{}: {}", endpointForLog.get(),
                    damaged ? "damaged" : "malformed", named == null ? "" : " naming channel " + named,
                    damaged ? " (resent by its sender)" : "", e.getMessage());
            return null;
        }
    }

    /**
     * A message from a sender was dropped as damaged or malformed: the channel its header names, if open here, asks
     * its sender to resend at once. A damaged ACK or SYNC_REPLY needs no such answer: positions are cumulative, the
     * next one says as much, and a sender that hears nothing asks again after its resync interval.
     */
    private void droppedFromSender(byte[] sender, byte[] header, long now) {
        ChannelId named = codec.channelNamedBy(header);
        InboundChannelState channel = named == null ? null : inbound.get(named);
        if (channel != null) {
            channel.onDamaged(sender, now);
        }
    }

    private void dispatchFromSender(byte[] sender, WireMessage message, long now) {
        if (message instanceof WireMessage.Data data) {
            metrics.framesReceived.add(data.parts());
            InboundChannelState channel = inbound.get(data.channel());
            if (channel == null) {
                dropUnknown(message, now);
            } else {
                channel.onData(sender, data, now);
            }
        } else if (message instanceof WireMessage.Sync sync) {
            InboundChannelState channel = inbound.get(sync.channel());
            if (channel == null) {
                // expected in a recovery: answered when the channel opens; a superseded sender's is not kept
                earlySyncs.merge(sync.channel(), new EarlySync(sender, sync.senderIncarnation()),
                        (kept, arrived) -> arrived.senderIncarnation() >= kept.senderIncarnation() ? arrived : kept);
                metrics.earlySyncsKept.increment();
                log.debug("Data plane {} keeps the Sync for channel {}, not open here yet", endpointForLog.get(),
                        sync.channel());
            } else {
                channel.onSync(sender, sync.senderIncarnation(), now);
            }
        } else {
            wrongDirection(message, now);
        }
    }

    private void dispatchFromReceiver(PeerConnection peer, WireMessage message, long now) {
        if (!(message instanceof WireMessage.Position position)) {
            wrongDirection(message, now);
            return;
        }
        OutboundChannelState channel = outbound.get(position.channel());
        if (channel == null) {
            dropUnknown(message, now);
        } else if (channel.peer() == peer) {
            channel.onPosition(position, now);
        }
        // else: a late answer from the receiver the channel was redirected away from
    }

    private void dropUnknown(WireMessage message, long now) {
        metrics.unknownChannelFramesDropped.increment();
        if (recentlyClosed.contains(message.channel(), now)) {
            log.debug("Data plane {} dropped {} for channel {}, closed here lately", endpointForLog.get(),
                    message.getClass().getSimpleName(), message.channel());
            return;
        }
        droppedFrameWarning.warn(now, "Data plane {} dropped {} for channel {}, which is not open here",
                endpointForLog.get(), message.getClass().getSimpleName(), message.channel());
    }

    private void wrongDirection(WireMessage message, long now) {
        metrics.malformedFramesDropped.increment();
        droppedFrameWarning.warn(now, "Data plane {} dropped {} for channel {} that arrived on the wrong socket",
                endpointForLog.get(), message.getClass().getSimpleName(), message.channel());
    }
}
