package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Retained frames for tests of the output log, and a comparable view of what a frame carries. */
final class TestFrames {

    static final FrameCodec CODEC = new FrameCodec(DataPlaneConfig.DEFAULT_MAX_FRAME_BYTES);

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

    static RetainedFrame frame(ChannelId channel, long firstSeq, int eventCount, byte[] payload) {
        return new RetainedFrame(firstSeq, eventCount,
                CODEC.encodeDataHeader(channel, firstSeq, eventCount, payload.length), payload);
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
