package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes the frames of an output log for a {@link LogSegment} and for spill files, and strictly decodes them.
 * Big-endian:
 *
 * <pre>
 *   segment: int magic 'SFLS', byte version (1), int frameCount (>= 1), then frameCount records
 *   record:  long firstSeq (>= 1), int eventCount (>= 1), int payloadLength (0..maxFrameBytes), payload
 * </pre>
 *
 * The records of a segment are contiguous (each starts at the seq after the last one's) and span exactly the
 * segment's [firstSeq, lastSeq]. Spill files are a bare sequence of records. Stateless apart from the frame
 * limit, so safe to share between threads.
 */
final class LogSegmentCodec {

    static final int MAGIC = 0x53464C53; // "SFLS"
    static final byte VERSION = 1;
    static final int RECORD_PREFIX_BYTES = 8 + 4 + 4;
    private static final int SEGMENT_PREFIX_BYTES = 4 + 1 + 4;

    private final FrameCodec frameCodec;

    LogSegmentCodec(FrameCodec frameCodec) {
        this.frameCodec = frameCodec;
    }

    /** The encoded size of one frame as a record. */
    static int recordBytes(RetainedFrame frame) {
        return RECORD_PREFIX_BYTES + frame.payload.length;
    }

    /** A segment of {@code frames} (non-empty and contiguous) that a sender of {@code incarnation} logged. */
    LogSegment encode(ChannelId channel, int incarnation, List<RetainedFrame> frames) {
        int bytes = SEGMENT_PREFIX_BYTES;
        for (RetainedFrame frame : frames) {
            bytes += recordBytes(frame);
        }
        ByteBuffer out = ByteBuffer.allocate(bytes).putInt(MAGIC).put(VERSION).putInt(frames.size());
        for (RetainedFrame frame : frames) {
            out.put(recordPrefix(frame)).put(frame.payload);
        }
        return new LogSegment(channel, incarnation, frames.get(0).firstSeq, frames.get(frames.size() - 1).lastSeq(),
                out.array());
    }

    /** Each frame as two buffers, its record prefix and its payload (not copied), for a gathering write. */
    static ByteBuffer[] records(List<RetainedFrame> frames) {
        ByteBuffer[] buffers = new ByteBuffer[2 * frames.size()];
        for (int i = 0; i < frames.size(); i++) {
            buffers[2 * i] = recordPrefix(frames.get(i));
            buffers[2 * i + 1] = ByteBuffer.wrap(frames.get(i).payload);
        }
        return buffers;
    }

    private static ByteBuffer recordPrefix(RetainedFrame frame) {
        return ByteBuffer.allocate(RECORD_PREFIX_BYTES).putLong(frame.firstSeq).putInt(frame.eventCount)
                .putInt(frame.payload.length).flip();
    }

    /**
     * The frames of {@code segment}, ready to send on its channel by a sender of {@code senderIncarnation} (their
     * headers carry it).
     *
     * @throws MalformedLogSegmentException if its bytes are not a valid segment spanning its seq range
     */
    List<RetainedFrame> decode(LogSegment segment, int senderIncarnation) {
        String where = "Log segment [" + segment.firstSeq() + ", " + segment.lastSeq() + "] of channel "
                + segment.channel();
        ByteBuffer in = ByteBuffer.wrap(segment.frames());
        require(in, SEGMENT_PREFIX_BYTES, where, "the segment header");
        int magic = in.getInt();
        if (magic != MAGIC) {
            throw new MalformedLogSegmentException(where + " does not start with the magic 'SFLS' but 0x"
                    + Integer.toHexString(magic) + "; it was not encoded by a Steadfast data plane");
        }
        byte version = in.get();
        if (version != VERSION) {
            throw new MalformedLogSegmentException(where + " has encoding version " + version + ", this data plane"
                    + " reads version " + VERSION + "; replay it with a data plane of the version that wrote it");
        }
        int count = in.getInt();
        if (count < 1) {
            throw new MalformedLogSegmentException(where + " declares " + count + " frames, at least 1 expected");
        }
        List<RetainedFrame> frames = new ArrayList<>(Math.min(count, in.remaining() / RECORD_PREFIX_BYTES));
        long expectedSeq = segment.firstSeq();
        for (int i = 0; i < count; i++) {
            RetainedFrame frame = decodeRecord(segment.channel(), senderIncarnation, in, where);
            if (frame.firstSeq != expectedSeq) {
                throw new MalformedLogSegmentException(where + ": frame " + i + " starts at seq " + frame.firstSeq
                        + ", expected " + expectedSeq + " (frames must be contiguous from the segment's firstSeq)");
            }
            expectedSeq = frame.lastSeq() + 1;
            frames.add(frame);
        }
        if (in.hasRemaining()) {
            throw new MalformedLogSegmentException(where + " has " + in.remaining() + " bytes after its " + count
                    + " frames");
        }
        if (expectedSeq - 1 != segment.lastSeq()) {
            throw new MalformedLogSegmentException(where + ": its frames end at seq " + (expectedSeq - 1)
                    + ", not at the segment's lastSeq");
        }
        return frames;
    }

    /**
     * Reads one record at the buffer's position and advances past it, as a frame to send on {@code channel} by a
     * sender of {@code senderIncarnation}.
     *
     * @param where names the segment or file being read, for the message of a failure
     * @throws MalformedLogSegmentException if the record is truncated or a field is out of range
     */
    RetainedFrame decodeRecord(ChannelId channel, int senderIncarnation, ByteBuffer in, String where) {
        int at = in.position();
        require(in, RECORD_PREFIX_BYTES, where, "the record at byte " + at);
        long firstSeq = in.getLong();
        int eventCount = in.getInt();
        int payloadLength = in.getInt();
        if (firstSeq < 1 || eventCount < 1 || firstSeq > Long.MAX_VALUE - eventCount) {
            throw new MalformedLogSegmentException(where + ": the record at byte " + at + " has firstSeq " + firstSeq
                    + " and eventCount " + eventCount + "; logged frames have firstSeq >= 1 and eventCount >= 1");
        }
        if (payloadLength < 0 || payloadLength > frameCodec.maxFrameBytes()) {
            throw new MalformedLogSegmentException(where + ": the record at byte " + at + " has a payload of "
                    + payloadLength + " bytes, this data plane's maxFrameBytes is " + frameCodec.maxFrameBytes());
        }
        require(in, payloadLength, where, "the payload of the record at byte " + at);
        byte[] payload = new byte[payloadLength];
        in.get(payload);
        return new RetainedFrame(firstSeq, eventCount,
                frameCodec.encodeDataHeader(channel, senderIncarnation, firstSeq, eventCount, payload), payload);
    }

    private static void require(ByteBuffer in, int bytes, String where, String what) {
        if (in.remaining() < bytes) {
            throw new MalformedLogSegmentException(where + " is truncated: " + what + " needs " + bytes
                    + " bytes, " + in.remaining() + " left");
        }
    }
}
