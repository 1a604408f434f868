package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The oldest part of one channel's output log, moved to disk: frames appended to spill files of about
 * {@code fileBytes} each (encoded as {@link LogSegmentCodec} records), with an in-memory index of each frame's
 * seqs, file and offset so that cursors never touch the disk. A frame is read back only when it is sent, one at a
 * time. A file is deleted as soon as the log no longer holds any of its frames. IO thread only.
 */
final class SpilledFrames {

    /** Where a spilled frame lives, and what cursors need to know of it without reading it. */
    private record Entry(long firstSeq, int eventCount, int payloadLength, SpillFile file, long offset) {

        long lastSeq() {
            return firstSeq + eventCount - 1;
        }
    }

    private final ChannelId channel;
    /** Of the channel's sender: the headers of frames read back carry it. */
    private final int senderIncarnation;
    private final SpillDirectory directory;
    private final long fileBytes;
    private final LogSegmentCodec codec;
    private final IndexedRing<Entry> index = new IndexedRing<>();
    private long bytes;
    /** The file being appended to; null before the first spill and after every frame was removed. */
    private SpillFile writing;
    /** The older file last read from, kept open because replays read in order. */
    private SpillFile reading;

    SpilledFrames(ChannelId channel, int senderIncarnation, SpillDirectory directory, long fileBytes,
            LogSegmentCodec codec) {
        this.channel = channel;
        this.senderIncarnation = senderIncarnation;
        this.directory = directory;
        this.fileBytes = fileBytes;
        this.codec = codec;
    }

    int size() {
        return index.size();
    }

    /** Payload bytes of the spilled frames. */
    long bytes() {
        return bytes;
    }

    long firstSeq(int position) {
        return index.get(position).firstSeq();
    }

    long lastSeq(int position) {
        return index.get(position).lastSeq();
    }

    /**
     * Writes {@code frames} after the spilled ones, file by file. The frames of each file written are added
     * before the next file is begun, so after an exception {@link #size()} tells how many made it.
     *
     * @throws IOException if a file cannot be created or written
     */
    void append(List<RetainedFrame> frames) throws IOException {
        int from = 0;
        while (from < frames.size()) {
            SpillFile file = fileWithRoom();
            int to = from;
            long chunkBytes = 0;
            do {
                chunkBytes += LogSegmentCodec.recordBytes(frames.get(to));
                to++;
            } while (to < frames.size() && file.size() + chunkBytes < fileBytes);
            List<RetainedFrame> chunk = frames.subList(from, to);
            long offset = file.append(LogSegmentCodec.records(chunk));
            for (RetainedFrame frame : chunk) {
                index.addLast(new Entry(frame.firstSeq, frame.eventCount, frame.payload.length, file, offset));
                offset += LogSegmentCodec.recordBytes(frame);
                bytes += frame.payload.length;
            }
            from = to;
        }
    }

    private SpillFile fileWithRoom() throws IOException {
        if (writing == null || writing.size() >= fileBytes) {
            SpillFile next = new SpillFile(directory.newFile(channel));
            if (writing != null && writing != reading) {
                writing.closeChannel();
            }
            writing = next;
        }
        return writing;
    }

    /**
     * Reads the frame at {@code position} (0 is the oldest spilled) back from its file.
     *
     * @throws IOException if it cannot be read, or what is read is not the frame the index expects
     */
    RetainedFrame read(int position) throws IOException {
        Entry entry = index.get(position);
        if (entry.file() != writing && entry.file() != reading) {
            if (reading != null && reading != writing) {
                reading.closeChannel();
            }
            reading = entry.file();
        }
        ByteBuffer record = entry.file().read(entry.offset(), LogSegmentCodec.RECORD_PREFIX_BYTES
                + entry.payloadLength());
        String where = "Spill file " + entry.file().path() + " of channel " + channel;
        RetainedFrame frame;
        try {
            frame = codec.decodeRecord(channel, senderIncarnation, record, where);
        } catch (MalformedLogSegmentException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (frame.firstSeq != entry.firstSeq() || frame.eventCount != entry.eventCount()) {
            throw new IOException(where + ": the record at byte " + entry.offset() + " holds seqs " + frame.firstSeq
                    + ".." + frame.lastSeq() + ", expected " + entry.firstSeq() + ".." + entry.lastSeq());
        }
        return frame;
    }

    /** Forgets the oldest spilled frame, deleting its file if no later frame is in it. */
    void removeFirst() {
        Entry removed = index.removeFirst();
        bytes -= removed.payloadLength();
        if (index.isEmpty() || index.get(0).file() != removed.file()) {
            forget(removed.file());
        }
    }

    /** Deletes every spill file. */
    void clear() {
        while (!index.isEmpty()) {
            removeFirst();
        }
        if (writing != null) {
            forget(writing); // created, but its write failed
        }
    }

    private void forget(SpillFile file) {
        file.delete();
        if (file == writing) {
            writing = null;
        }
        if (file == reading) {
            reading = null;
        }
    }
}
