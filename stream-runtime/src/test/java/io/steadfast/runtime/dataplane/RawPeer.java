package io.steadfast.runtime.dataplane;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A data plane peer played by the test itself, to put exactly the messages it likes on the wire (damaged ones, ones
 * of any incarnation) and to see exactly what comes back: as a sender, a DEALER connected to a data plane's ROUTER;
 * as a receiver, a ROUTER bound on loopback that a data plane's DEALER connects to. Encodes and decodes with
 * {@link FrameCodec}; test thread only.
 */
final class RawPeer implements AutoCloseable {

    /** A decoded message and the routing id of the peer it came from (null on a DEALER). */
    record Received(byte[] from, WireMessage message) {
    }

    private final FrameCodec codec = new FrameCodec(DataPlaneConfig.DEFAULT_MAX_FRAME_BYTES);
    private final ZContext context;
    private final ZMQ.Socket socket;
    private final boolean router;
    private final Deque<Received> received = new ArrayDeque<>();

    private RawPeer(ZContext context, ZMQ.Socket socket, boolean router) {
        this.context = context;
        this.socket = socket;
        this.router = router;
    }

    /** A sender connected to the data plane at {@code endpoint}. */
    static RawPeer sender(String endpoint) {
        ZContext context = new ZContext();
        return new RawPeer(context, TestFrames.rawDealer(context, endpoint), false);
    }

    /** A receiver bound on loopback; give {@link #endpoint()} to a data plane's outbound channel. */
    static RawPeer receiver() {
        ZContext context = new ZContext();
        ZMQ.Socket socket = context.createSocket(SocketType.ROUTER);
        socket.setLinger(0);
        socket.setHandshakeIvl(PeerConnection.HANDSHAKE_TIMEOUT_MILLIS);
        socket.bind("tcp://127.0.0.1:*");
        return new RawPeer(context, socket, true);
    }

    FrameCodec codec() {
        return codec;
    }

    String endpoint() {
        return socket.getLastEndpoint();
    }

    /** Sends one message of one or two parts (to {@code to}, the routing id of a sender, on a receiver). */
    void send(byte[] to, byte[] header, byte[] payload) {
        if (router) {
            socket.send(to, ZMQ.SNDMORE);
        }
        if (payload == null) {
            socket.send(header, 0);
        } else {
            socket.send(header, ZMQ.SNDMORE);
            socket.send(payload, 0);
        }
    }

    /** As a sender: sends one message. */
    void send(byte[] header, byte[] payload) {
        send(null, header, payload);
    }

    /**
     * The next message that arrives within {@code timeout} and is of one of {@code types} (others are passed over),
     * or null.
     */
    Received next(Duration timeout, MessageType... types) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            while (!received.isEmpty()) {
                Received next = received.poll();
                if (isOfType(next.message(), types)) {
                    return next;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            socket.setReceiveTimeOut((int) Math.max(1, Math.min(100, left / 1_000_000)));
            readOne();
        }
    }

    /** As {@link #next}, for a position (ACK or SYNC_REPLY) of one of {@code types}. */
    WireMessage.Position nextPosition(Duration timeout, MessageType... types) {
        Received next = next(timeout, types);
        return next == null ? null : (WireMessage.Position) next.message();
    }

    private static boolean isOfType(WireMessage message, MessageType... types) {
        MessageType type;
        if (message instanceof WireMessage.Data data) {
            type = data.parts() == 1 ? MessageType.DATA : MessageType.BUNDLE;
        } else if (message instanceof WireMessage.Position position) {
            type = position.type();
        } else {
            type = MessageType.SYNC;
        }
        for (MessageType wanted : types) {
            if (wanted == type) {
                return true;
            }
        }
        return false;
    }

    /** Reads one ZeroMQ message, if one comes within the receive timeout, and queues what it carries. */
    private void readOne() {
        byte[] first = socket.recv(0);
        if (first == null) {
            return;
        }
        byte[] from = router ? first : null;
        byte[] header = router ? socket.recv(0) : first;
        while (header != null) {
            byte[] payload = FrameCodec.announcesPayload(header) && socket.hasReceiveMore() ? socket.recv(0) : null;
            try {
                received.add(new Received(from, codec.decode(header, payload)));
            } catch (MalformedFrameException e) {
                throw new AssertionError("the data plane sent a message the codec rejects: " + e.getMessage(), e);
            }
            header = socket.hasReceiveMore() ? socket.recv(0) : null;
        }
    }

    @Override
    public void close() {
        socket.close();
        context.close();
    }
}
