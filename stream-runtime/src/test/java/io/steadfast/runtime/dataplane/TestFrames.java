package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Retained frames for tests of the output log, a comparable view of what a frame carries, and a raw socket for
 * tests that put bytes of their own on the wire.
 */
final class TestFrames {

    static final FrameCodec CODEC = new FrameCodec(DataPlaneConfig.DEFAULT_MAX_FRAME_BYTES);

    /**
     * A DEALER of the test's own, connected to a data plane's ROUTER, to send it whatever parts the test likes. As
     * the data plane's own sockets do, a loopback handshake that stalls (seen with JeroMQ 0.6.0) is dropped and
     * retried instead of holding the queued messages forever.
     */
    static ZMQ.Socket rawDealer(ZContext context, String endpoint) {
        ZMQ.Socket raw = context.createSocket(SocketType.DEALER);
        raw.setLinger(0);
        raw.setHandshakeIvl(PeerConnection.HANDSHAKE_TIMEOUT_MILLIS);
        raw.setReconnectIVL(50);
        raw.connect(endpoint);
        return raw;
    }

    /** What a frame carries, comparable with equals (the payload by content). */
    record Content(long firstSeq, int eventCount, ByteBuffer payload) {

        static Content of(RetainedFrame frame) {
            return new Content(frame.firstSeq, frame.eventCount, ByteBuffer.wrap(frame.payload));
        }

        static List<Content> of(List<RetainedFrame> frames) {
            return frames.stream().map(Content::of).toList();
        }
    }

    private TestFrames() {
    }

    /**
     * {@code fields} (a header without its checksum) followed by the checksum of its bytes and {@code payload}: a
     * message whose every field is as the test wrote it, sealed as a sender would seal it, so that decoding gets past
     * the checksum to the checks behind it.
     */
    static byte[] sealed(byte[] fields, byte[] payload) {
        byte[] header = Arrays.copyOf(fields, fields.length + FrameCodec.CHECKSUM_BYTES);
        ByteBuffer.wrap(header).putInt(fields.length, FrameCodec.checksum(fields, fields.length, payload));
        return header;
    }

    /** {@code header}, altered by the test, sealed again over {@code payload} (see {@link #sealed}). */
    static byte[] resealed(byte[] header, byte[] payload) {
        return sealed(Arrays.copyOf(header, header.length - FrameCodec.CHECKSUM_BYTES), payload);
    }

    static RetainedFrame frame(ChannelId channel, long firstSeq, int eventCount, byte[] payload) {
        return new RetainedFrame(firstSeq, eventCount,
                CODEC.encodeDataHeader(channel, 0, firstSeq, eventCount, payload), payload);
    }

    /** {@code count} contiguous frames from {@code firstSeq}, of 1..maxEvents events and 0..maxBytes random bytes. */
    static List<RetainedFrame> randomFrames(ChannelId channel, long firstSeq, int count, int maxEvents, int maxBytes,
            Random random) {
        List<RetainedFrame> frames = new ArrayList<>(count);
        long next = firstSeq;
        for (int i = 0; i < count; i++) {
            int events = 1 + random.nextInt(maxEvents);
            byte[] payload = new byte[random.nextInt(maxBytes + 1)];
            random.nextBytes(payload);
            frames.add(frame(channel, next, events, payload));
            next += events;
        }
        return frames;
    }
}
