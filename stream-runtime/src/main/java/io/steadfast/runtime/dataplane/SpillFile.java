package io.steadfast.runtime.dataplane;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One append-only file of spilled frames. Its channel is opened on demand and may be closed between uses, so that
 * a log spread over many files holds few descriptors. Writes go to the end as the file's size records it, so a
 * write that failed half-way is overwritten by the next. IO thread only.
 */
final class SpillFile {

    private static final Logger log = LoggerFactory.getLogger(SpillFile.class);

    private final Path path;
    private FileChannel channel;
    private long size;

    /** @throws IOException if the file cannot be created (it must not exist) */
    SpillFile(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
    }

    Path path() {
        return path;
    }

    /** Bytes written so far. */
    long size() {
        return size;
    }

    /**
     * Appends every remaining byte of {@code buffers}.
     *
     * @return the offset the first byte was written at
     * @throws IOException if the write fails; the file's size is then unchanged
     */
    long append(ByteBuffer[] buffers) throws IOException {
        long bytes = 0;
        for (ByteBuffer buffer : buffers) {
            bytes += buffer.remaining();
        }
        FileChannel open = open();
        open.position(size);
        long written = 0;
        while (written < bytes) {
            written += open.write(buffers);
        }
        long offset = size;
        size += bytes;
        return offset;
    }

    /** Reads {@code length} bytes at {@code offset}. */
    ByteBuffer read(long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        FileChannel open = open();
        while (buffer.hasRemaining()) {
            if (open.read(buffer, offset + buffer.position()) < 0) {
                throw new EOFException("Spill file " + path + " ends before byte " + (offset + length));
            }
        }
        return buffer.flip();
    }

    private FileChannel open() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
        return channel;
    }

    /** Releases the file descriptor; the next read or append opens the file again. */
    void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("Closing spill file {} failed", path, e);
            }
            channel = null;
        }
    }

    /** Closes and deletes the file; a failure is logged (the directory is deleted when the data plane closes). */
    void delete() {
        closeChannel();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            log.warn("Could not delete spill file {}: {}", path, e.toString());
        }
    }
}
