package io.steadfast.runtime.replaylog;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a batch in the format {@link ReplayLogBatchWriter} documents, entry after entry. Each entry's declared size is
 * checked against {@code maxFrameBytes} before its bytes are read, so a bad length cannot make the reader buffer
 * more than that. Does not close the stream. Not thread-safe.
 */
public final class ReplayLogBatchReader {

    private final DataInputStream in;
    private final int maxFrameBytes;
    private boolean headerRead;
    /** Whether the entries carry their incarnation (format 2); format 1's are read as incarnation 0. */
    private boolean withIncarnation;
    private int entry = -1;

    public ReplayLogBatchReader(InputStream in, int maxFrameBytes) {
        this.in = new DataInputStream(in);
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Every segment of a batch, read to its end. */
    public static List<ReplayLogSegment> readAll(InputStream in, int maxFrameBytes) throws IOException {
        ReplayLogBatchReader reader = new ReplayLogBatchReader(in, maxFrameBytes);
        List<ReplayLogSegment> segments = new ArrayList<>();
        for (ReplayLogSegment next = reader.next(); next != null; next = reader.next()) {
            segments.add(next);
        }
        return segments;
    }

    /** The next segment, or {@code null} at the end of the stream (which must fall between entries). */
    public ReplayLogSegment next() throws IOException {
        if (!headerRead) {
            readHeader();
            headerRead = true;
        }
        entry++;
        int first = in.read();
        if (first < 0) {
            return null;
        }
        int channelLength = (first << 8) | readByte("channelLength");
        if (channelLength < 1 || channelLength > ReplayLogBatchWriter.MAX_CHANNEL_BYTES) {
            throw invalid("channelLength", "declares a channel id of " + channelLength + " bytes; use 1.."
                    + ReplayLogBatchWriter.MAX_CHANNEL_BYTES + " (a big-endian uint16 before the UTF-8 id)");
        }
        ChannelId channel = channel(readBytes(channelLength, "channel"));
        int incarnation = withIncarnation ? readInt("incarnation") : 0;
        long firstSeq = readLong("firstSeq");
        long lastSeq = readLong("lastSeq");
        long checkpoint = readLong("checkpoint");
        int length = readInt("length");
        if (incarnation < 0) {
            throw invalid("incarnation", "(channel " + channel + ") has incarnation " + incarnation
                    + "; a task's first incarnation is 0");
        }
        if (firstSeq < 1) {
            throw invalid("firstSeq", "(channel " + channel + ") has firstSeq " + firstSeq
                    + "; sequence numbers start at 1");
        }
        if (lastSeq < firstSeq) {
            throw invalid("lastSeq", "(channel " + channel + ") has lastSeq " + lastSeq + " below its firstSeq "
                    + firstSeq + "; a segment holds records firstSeq..lastSeq");
        }
        if (checkpoint < ReplayLogSegment.NO_CHECKPOINT) {
            throw invalid("checkpoint", "(channel " + channel + ") has checkpoint " + checkpoint
                    + "; use the id of the latest completed checkpoint, or -1 for none");
        }
        if (length < 0) {
            throw invalid("length", "(channel " + channel + ") declares a negative length " + length);
        }
        if (length > maxFrameBytes) {
            throw new ReplayLogEntryTooLargeException(entry, field("length"), "Entry " + entry + " (channel "
                    + channel + ", records " + firstSeq + ".." + lastSeq + ") holds " + length
                    + " bytes, more than the " + maxFrameBytes + " accepted; log smaller segments");
        }
        byte[] frames = readBytes(length, "frames");
        return new ReplayLogSegment(new LogSegment(channel, incarnation, firstSeq, lastSeq, frames), checkpoint);
    }

    /** The index of the entry read last (from 0), or -1 before the first. */
    public int entry() {
        return entry;
    }

    private void readHeader() throws IOException {
        int magic;
        try {
            magic = in.readInt();
        } catch (EOFException e) {
            throw new ReplayLogFormatException(-1, "magic", "The body is not a replay-log batch: it ends before"
                    + " the 4-byte header 0x53464C32 (\"SFL2\")");
        }
        if (magic != ReplayLogBatchWriter.MAGIC && magic != ReplayLogBatchWriter.MAGIC_WITHOUT_INCARNATION) {
            throw new ReplayLogFormatException(-1, "magic", "The body is not a replay-log batch: it starts with 0x"
                    + Integer.toHexString(magic) + " instead of the header 0x53464C32 (\"SFL2\", or 0x53464C31"
                    + " \"SFL1\" for a batch without incarnations)");
        }
        withIncarnation = magic == ReplayLogBatchWriter.MAGIC;
    }

    private ChannelId channel(byte[] bytes) throws ReplayLogFormatException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw invalid("channel", "has a channel id that is not valid UTF-8");
        }
        try {
            return ChannelId.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid("channel", "has channel '" + text + "': " + e.getMessage()
                    + "; use the form topology~index@epoch");
        }
    }

    private int readByte(String field) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw truncated(field);
        }
        return b;
    }

    private byte[] readBytes(int length, String field) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw truncated(field);
        }
        return bytes;
    }

    private long readLong(String field) throws IOException {
        try {
            return in.readLong();
        } catch (EOFException e) {
            throw truncated(field);
        }
    }

    private int readInt(String field) throws IOException {
        try {
            return in.readInt();
        } catch (EOFException e) {
            throw truncated(field);
        }
    }

    private String field(String name) {
        return "entries[" + entry + "]." + name;
    }

    private ReplayLogFormatException invalid(String field, String problem) {
        return new ReplayLogFormatException(entry, field(field), "Entry " + entry + " " + problem);
    }

    private ReplayLogFormatException truncated(String field) {
        return new ReplayLogFormatException(entry, field(field), "The batch ended inside entry " + entry
                + " while reading its " + field + "; a batch may end only between entries");
    }
}
