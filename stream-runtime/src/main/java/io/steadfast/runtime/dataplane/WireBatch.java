package io.steadfast.runtime.dataplane;

import java.util.ArrayList;
import java.util.List;
import org.zeromq.ZMQ;

/**
 * The data plane messages queued for one destination during a pass of the IO loop, sent as one multipart ZeroMQ
 * message: the header part of each, and for {@link MessageType#DATA} its payload part right after it (a receiver
 * tells from the header whether a payload follows). A job of many channels sends frames of a few records each, many
 * per pass to the same peer; one ZeroMQ message for all of them costs JeroMQ one pipe flush, one wake-up of its
 * I/O thread and one socket write instead of one each. A batch goes when the pass ends, or at once when it holds
 * {@value #MAX_PARTS} parts or {@value #MAX_BYTES} bytes. IO thread only.
 */
final class WireBatch {

    static final int MAX_PARTS = 256;
    static final int MAX_BYTES = 256 * 1024;

    private final List<byte[]> parts = new ArrayList<>();
    private int bytes;

    /**
     * Queues a message.
     *
     * @param header  its header part
     * @param payload its payload part, or null for a message of no payload
     * @return whether the batch is full and must be sent now
     */
    boolean add(byte[] header, byte[] payload) {
        parts.add(header);
        bytes += header.length;
        if (payload != null) {
            parts.add(payload);
            bytes += payload.length;
        }
        return parts.size() >= MAX_PARTS || bytes >= MAX_BYTES;
    }

    boolean isEmpty() {
        return parts.isEmpty();
    }

    /**
     * Sends the queued messages as one ZeroMQ message, after {@code routingId} (a ROUTER's destination) if not
     * null, and empties the batch either way.
     *
     * @return false if ZeroMQ refused the message (high-water mark): every message of the batch is lost, and the
     *         resync protocol recovers them like any other loss
     */
    boolean sendOn(ZMQ.Socket socket, byte[] routingId, TransmitGate gate, DataPlaneMetrics metrics) {
        if (parts.isEmpty()) {
            return true;
        }
        try {
            if (!gate.mayTransmit()) {
                metrics.withheldMessages.increment();
                return true; // withheld: dropped as a loss the resync protocol would recover
            }
            if (routingId != null && !socket.send(routingId, ZMQ.SNDMORE | ZMQ.DONTWAIT)) {
                return false;
            }
            int last = parts.size() - 1;
            for (int i = 0; i <= last; i++) {
                // once the first part is accepted, ZeroMQ accepts the rest of the message atomically
                if (!socket.send(parts.get(i), (i < last ? ZMQ.SNDMORE : 0) | ZMQ.DONTWAIT)) {
                    return false;
                }
            }
            return true;
        } finally {
            parts.clear();
            bytes = 0;
        }
    }
}
