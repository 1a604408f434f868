package io.steadfast.runtime.dataplane;

import java.util.HashSet;
import java.util.Set;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The DEALER socket towards one peer endpoint, shared by every outbound channel to that peer. Created, used and
 * closed by the IO thread only. Sends never block: a refused send (high-water mark) returns false and the
 * resync protocol recovers the frame later.
 */
final class PeerConnection {

    private static final int SEND_HIGH_WATER_MARK = 100_000;
    static final int HANDSHAKE_TIMEOUT_MILLIS = 500;

    private final String endpoint;
    private final ZMQ.Socket dealer;
    private final Set<OutboundChannelState> channels = new HashSet<>();

    PeerConnection(ZContext context, String endpoint, byte[] routingId, DataPlaneConfig config) {
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
        dealer.connect(endpoint);
    }

    String endpoint() {
        return endpoint;
    }

    ZMQ.Socket socket() {
        return dealer;
    }

    Set<OutboundChannelState> channels() {
        return channels;
    }

    boolean sendData(RetainedFrame frame) {
        if (!dealer.send(frame.header, ZMQ.SNDMORE | ZMQ.DONTWAIT)) {
            return false;
        }
        // once the first part is accepted, ZeroMQ accepts the rest of the message atomically
        return dealer.send(frame.payload, ZMQ.DONTWAIT);
    }

    boolean sendControl(byte[] message) {
        return dealer.send(message, ZMQ.DONTWAIT);
    }

    void close() {
        dealer.close();
    }
}
