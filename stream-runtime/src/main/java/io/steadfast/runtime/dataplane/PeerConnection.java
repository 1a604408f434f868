package io.steadfast.runtime.dataplane;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The DEALER socket towards one peer endpoint, shared by every outbound channel to that peer, and the PAIR socket
 * that receives the DEALER's connection events (ZeroMQ socket monitor). Created, used and closed by the IO thread
 * only. Messages sent during a pass of the IO loop are queued and go together when it ends ({@link WireBatch}).
 * Sends never block: a refused send (high-water mark) returns false and the resync protocol recovers the frame
 * later.
 */
final class PeerConnection {

    private static final int SEND_HIGH_WATER_MARK = 100_000;
    static final int HANDSHAKE_TIMEOUT_MILLIS = 500;
    private static final AtomicLong MONITORS = new AtomicLong();

    private final String endpoint;
    private final ZMQ.Socket dealer;
    private final ZMQ.Socket monitor;
    private final Set<OutboundChannelState> channels = new HashSet<>();
    private final WireBatch pending = new WireBatch();
    private final TransmitGate gate;
    private final DataPlaneMetrics metrics;
    /** Whether a ZMTP handshake with the peer completed since the last drop; IO thread only. */
    private boolean established;

    PeerConnection(ZContext context, String endpoint, byte[] routingId, DataPlaneConfig config, TransmitGate gate,
                   DataPlaneMetrics metrics) {
        this.gate = gate;
        this.metrics = metrics;
        this.endpoint = endpoint;
        this.dealer = context.createSocket(SocketType.DEALER);
        dealer.setLinger(0);
        dealer.setIdentity(routingId);
        dealer.setSndHWM(SEND_HIGH_WATER_MARK);
        dealer.setHeartbeatIvl((int) config.heartbeatInterval().toMillis());
        dealer.setHeartbeatTimeout((int) config.heartbeatTimeout().toMillis());
        // JeroMQ 0.6.0 occasionally stalls a loopback ZMTP handshake (the greeting sits unread in the socket);
        // a short handshake timeout drops such a connection and reconnects instead of waiting the default 30 s
        dealer.setHandshakeIvl(HANDSHAKE_TIMEOUT_MILLIS);
        dealer.setReconnectIVL(50);
        dealer.setReconnectIVLMax(1000);
        // the monitor is attached before connecting, so that no event of the first connection is missed
        String monitorAddress = "inproc://steadfast-peer-monitor-" + MONITORS.incrementAndGet();
        dealer.monitor(monitorAddress, ZMQ.EVENT_HANDSHAKE_PROTOCOL | ZMQ.EVENT_DISCONNECTED);
        this.monitor = context.createSocket(SocketType.PAIR);
        monitor.setLinger(0);
        monitor.connect(monitorAddress);
        dealer.connect(endpoint);
    }

    String endpoint() {
        return endpoint;
    }

    ZMQ.Socket socket() {
        return dealer;
    }

    /** The socket that receives the DEALER's connection events; poll it for input. */
    ZMQ.Socket monitorSocket() {
        return monitor;
    }

    /**
     * Reads every pending connection event. A drop counts only after a completed handshake: a peer that refuses
     * connections while the DEALER retries (it is gone, or not up yet) produces no further drops.
     *
     * @return whether an established connection dropped since the last call
     */
    boolean readDisconnects() {
        boolean dropped = false;
        ZMQ.Event event;
        while ((event = ZMQ.Event.recv(monitor, ZMQ.DONTWAIT)) != null) {
            if (event.getEvent() == ZMQ.EVENT_HANDSHAKE_PROTOCOL) {
                established = true;
            } else if (event.getEvent() == ZMQ.EVENT_DISCONNECTED && established) {
                established = false;
                dropped = true;
            }
        }
        return dropped;
    }

    Set<OutboundChannelState> channels() {
        return channels;
    }

    /**
     * Queues the frame for the end of the IO loop's pass ({@link #flush}).
     *
     * @return false if it filled the batch and ZeroMQ refused the batch (high-water mark)
     */
    boolean sendData(RetainedFrame frame) {
        return sendData(frame.header, frame.payload);
    }

    /** Queues a DATA or BUNDLE message; false as for {@link #sendData(RetainedFrame)}. */
    boolean sendData(byte[] header, byte[] payload) {
        return !pending.add(header, payload) || flush();
    }

    /** Queues a message of no payload for the end of the pass; false as for {@link #sendData}. */
    boolean sendControl(byte[] message) {
        return !pending.add(message, null) || flush();
    }

    /** Sends what was queued since the last flush, as one ZeroMQ message; false if refused (high-water mark). */
    boolean flush() {
        return pending.sendOn(dealer, null, gate, metrics);
    }

    void close() {
        dealer.monitor(null, 0);
        dealer.close();
        monitor.close();
    }
}
