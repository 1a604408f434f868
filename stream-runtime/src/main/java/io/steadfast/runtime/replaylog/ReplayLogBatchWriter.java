package io.steadfast.runtime.replaylog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes segments in the replay-log batch format, the body of the checkpoint-service's
 * {@code POST /api/v1/replay-logs/{topology}/segments} and of its {@code GET .../segments?after=} answer. All
 * integers big-endian (Java {@code DataOutputStream}):
 *
 * <pre>
 * int32   magic          0x53464C32 ("SFL2": Steadfast replay log, format 2)
 * repeated until the end of the stream:
 *   uint16  channelLength  1..{@value #MAX_CHANNEL_BYTES}
 *   byte[]  channel        UTF-8, the channel id's text form "topology~index@epoch"
 *   int32   incarnation    >= 0, of the sending task that logged the segment
 *   int64   firstSeq       >= 1
 *   int64   lastSeq        >= firstSeq
 *   int64   checkpoint     latest completed checkpoint when logged, -1 for none
 *   int32   length         >= 0
 *   byte[]  frames         length bytes, opaque (the data plane's encoding)
 * </pre>
 *
 * Format 1 (magic 0x53464C31, "SFL1") is the same without the incarnation; it is still read, each segment as
 * logged by incarnation 0, so that hosts that predate incarnations keep shipping.
 *
 * <p>Binary rather than JSON: the frames are most of the body and already binary, so base64 would add a third to
 * what the hosts send and the store reads, and a reader can check each entry's size before it buffers it.
 * The stream may end only between entries. Not thread-safe.
 */
public final class ReplayLogBatchWriter {

    /** The first four bytes of a batch. */
    public static final int MAGIC = 0x53464C32;
    /** The first four bytes of a batch in format 1, whose entries carry no incarnation. */
    public static final int MAGIC_WITHOUT_INCARNATION = 0x53464C31;
    /** Longest channel id accepted, in UTF-8 bytes. */
    public static final int MAX_CHANNEL_BYTES = 1024;
    /** The size of the batch header. */
    public static final int HEADER_BYTES = 4;
    private static final int FIXED_ENTRY_BYTES = 2 + 4 + 8 + 8 + 8 + 4;

    private final DataOutputStream out;

    /** Writes the header at once. */
    public ReplayLogBatchWriter(OutputStream out) throws IOException {
        this.out = new DataOutputStream(out);
        this.out.writeInt(MAGIC);
    }

    /** One batch in memory. */
    public static byte[] encode(List<ReplayLogSegment> segments) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.toIntExact(Math.min(Integer.MAX_VALUE - 8,
                HEADER_BYTES + segments.stream().mapToLong(ReplayLogBatchWriter::encodedSize).sum())));
        try {
            ReplayLogBatchWriter writer = new ReplayLogBatchWriter(bytes);
            for (ReplayLogSegment segment : segments) {
                writer.write(segment);
            }
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /** How many bytes {@link #write} takes for a segment of {@code channel} with {@code frameBytes} bytes. */
    public static long encodedSize(String channel, long frameBytes) {
        return FIXED_ENTRY_BYTES + channel.getBytes(StandardCharsets.UTF_8).length + frameBytes;
    }

    public static long encodedSize(ReplayLogSegment segment) {
        return encodedSize(segment.channel().toString(), segment.sizeBytes());
    }

    public void write(ReplayLogSegment segment) throws IOException {
        byte[] channel = segment.channel().toString().getBytes(StandardCharsets.UTF_8);
        if (channel.length > MAX_CHANNEL_BYTES) {
            throw new IllegalArgumentException("Channel id " + segment.channel() + " is longer than "
                    + MAX_CHANNEL_BYTES + " bytes");
        }
        out.writeShort(channel.length);
        out.write(channel);
        out.writeInt(segment.incarnation());
        out.writeLong(segment.firstSeq());
        out.writeLong(segment.lastSeq());
        out.writeLong(segment.checkpoint());
        out.writeInt(segment.sizeBytes());
        out.write(segment.segment().frames());
    }

    public void flush() throws IOException {
        out.flush();
    }
}
