package io.steadfast.checkpoint.snapshot;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;

/**
 * Reads a batch of snapshots from one stream, entry after entry, without holding an entry's bytes in memory. The
 * format, all integers big-endian (Java {@code DataOutputStream}):
 *
 * <pre>
 * optional header:
 *   int32   magic          0x53465332 ("SFS2"): every entry carries the incarnation of the task's copy that took it
 * repeated until the end of the stream:
 *   int32   taskIdLength   1..1024
 *   byte[]  taskId         UTF-8, taskIdLength bytes, e.g. "word-count/sink#0"
 *   int32   incarnation    0.., only after the header: the incarnation of the copy of the task that took it
 *   int64   length         0.., the snapshot's size in bytes
 *   byte[]  snapshot       length bytes
 * </pre>
 *
 * Without the header (which no task id length can be mistaken for) every entry is of incarnation 0: the form the
 * service answers a batch download in, and hosts that predate incarnations upload in. The stream may end only between
 * entries. Not thread-safe.
 */
public final class SnapshotBatchReader {

    /** Longest task id accepted, in UTF-8 bytes. */
    public static final int MAX_TASK_ID_BYTES = 1024;
    /** The header of a batch whose entries carry their incarnation. */
    public static final int MAGIC_WITH_INCARNATIONS = 0x53465332;

    private final DataInputStream in;
    private int index = -1;
    private Entry current;
    private boolean headerChecked;
    private boolean withIncarnations;

    public SnapshotBatchReader(InputStream in) {
        this.in = new DataInputStream(in);
    }

    /**
     * One entry; its {@link #content()} must be read (or is skipped) before the next entry is taken.
     *
     * @param incarnation the incarnation of the copy of the task that took the snapshot (0 in a batch without them)
     */
    public record Entry(int index, String taskId, int incarnation, long length, InputStream content) {
    }

    /** The next entry, or {@code null} at the end of the stream. Skips what is left of the previous entry. */
    public Entry next() throws IOException {
        if (current != null) {
            current.content().skipNBytes(((Bounded) current.content()).remaining);
        }
        index++;
        int first = in.read();
        if (first < 0) {
            current = null;
            return null;
        }
        int taskIdLength = readInt(first, "task id length");
        if (!headerChecked) {
            headerChecked = true;
            withIncarnations = taskIdLength == MAGIC_WITH_INCARNATIONS;
            if (withIncarnations) {
                index--;
                return next();
            }
        }
        if (taskIdLength < 1 || taskIdLength > MAX_TASK_ID_BYTES) {
            throw new SnapshotBatchFormatException("Entry " + index + " declares a task id of " + taskIdLength
                    + " bytes; use 1.." + MAX_TASK_ID_BYTES + " (the length is a big-endian int32 before the UTF-8 id)");
        }
        byte[] idBytes = new byte[taskIdLength];
        readFully(idBytes, "task id");
        String taskId = decode(idBytes);
        int incarnation = withIncarnations ? readInt(readByte("incarnation of task '" + taskId + "'"),
                "incarnation of task '" + taskId + "'") : 0;
        if (incarnation < 0) {
            throw new SnapshotBatchFormatException("Entry " + index + " (task '" + taskId + "') declares incarnation "
                    + incarnation + "; a task's first incarnation is 0");
        }
        long length = 0;
        for (int i = 0; i < 8; i++) {
            length = (length << 8) | readByte("snapshot length of task '" + taskId + "'");
        }
        if (length < 0) {
            throw new SnapshotBatchFormatException("Entry " + index + " (task '" + taskId + "') declares a negative"
                    + " snapshot length " + length + "; the length is a big-endian int64");
        }
        current = new Entry(index, taskId, incarnation, length, new Bounded(in, length, index, taskId));
        return current;
    }

    /** A big-endian int32 whose first byte was read already. */
    private int readInt(int first, String what) throws IOException {
        return (first << 24) | (readByte(what) << 16) | (readByte(what) << 8) | readByte(what);
    }

    private int readByte(String what) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw truncated(what);
        }
        return b;
    }

    private void readFully(byte[] bytes, String what) throws IOException {
        if (in.readNBytes(bytes, 0, bytes.length) < bytes.length) {
            throw truncated(what);
        }
    }

    private SnapshotBatchFormatException truncated(String what) {
        return new SnapshotBatchFormatException("The batch ended inside entry " + index + " while reading its " + what
                + "; a batch may end only between entries");
    }

    private String decode(byte[] bytes) throws SnapshotBatchFormatException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new SnapshotBatchFormatException("Entry " + index + " has a task id that is not valid UTF-8");
        }
    }

    /** The bytes of one entry; fails rather than ending early when the batch stream ends inside them. */
    private static final class Bounded extends InputStream {

        private final InputStream in;
        private final long length;
        private final int index;
        private final String taskId;
        private long remaining;

        Bounded(InputStream in, long length, int index, String taskId) {
            this.in = in;
            this.length = length;
            this.index = index;
            this.taskId = taskId;
            this.remaining = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining == 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, remaining));
            if (n < 0) {
                throw new SnapshotBatchFormatException("Entry " + index + " (task '" + taskId + "') declares "
                        + length + " bytes but the batch ended after " + (length - remaining));
            }
            remaining -= n;
            return n;
        }

        @Override
        public void close() {
            // the batch stream belongs to the reader's caller
        }
    }
}
