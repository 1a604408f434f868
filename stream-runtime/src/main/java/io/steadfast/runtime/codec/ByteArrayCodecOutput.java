package io.steadfast.runtime.codec;

import io.steadfast.api.codec.CodecOutput;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte-array {@link CodecOutput}. Not thread-safe. {@link #toByteArray()} copies, so the buffer can
 * be {@link #reset()} and reused for the next frame (the data plane takes ownership of the copy).
 */
public final class ByteArrayCodecOutput implements CodecOutput {

    private byte[] buffer;
    private int size;

    public ByteArrayCodecOutput(int initialCapacity) {
        this.buffer = new byte[Math.max(16, initialCapacity)];
    }

    public int size() {
        return size;
    }

    public void reset() {
        size = 0;
    }

    /** Drops everything written after the first {@code newSize} bytes, e.g. a record that failed to encode. */
    void truncate(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " bytes to " + newSize);
        }
        size = newSize;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    /** The bytes written, after a prefix of {@code length} in the form {@link #writeLength} writes; one copy. */
    public byte[] toByteArrayAfterLength(int length) {
        return toByteArrayAfterLength(length, null);
    }

    /**
     * The bytes written, after a prefix of {@code length} in the form {@link #writeLength} writes and the bytes
     * written to {@code head} (none if null); one copy.
     */
    public byte[] toByteArrayAfterLength(int length, ByteArrayCodecOutput head) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, was " + length);
        }
        int prefix = 1;
        for (long rest = length >>> 7; rest != 0; rest >>>= 7) {
            prefix++;
        }
        int headSize = head == null ? 0 : head.size;
        byte[] result = new byte[prefix + headSize + size];
        long value = length;
        for (int i = 0; i < prefix - 1; i++) {
            result[i] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        result[prefix - 1] = (byte) value;
        if (headSize > 0) {
            System.arraycopy(head.buffer, 0, result, prefix, headSize);
        }
        System.arraycopy(buffer, 0, result, prefix + headSize, size);
        return result;
    }

    private void ensure(int extra) {
        int needed = size + extra;
        if (needed > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
        }
    }

    @Override
    public void writeByte(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
    }

    @Override
    public void writeInt(int value) {
        ensure(4);
        buffer[size++] = (byte) (value >>> 24);
        buffer[size++] = (byte) (value >>> 16);
        buffer[size++] = (byte) (value >>> 8);
        buffer[size++] = (byte) value;
    }

    @Override
    public void writeVarInt(int value) {
        int zigzag = (value << 1) ^ (value >> 31);
        writeUnsignedVarLong(zigzag & 0xFFFFFFFFL);
    }

    @Override
    public void writeLong(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[size++] = (byte) (value >>> shift);
        }
    }

    @Override
    public void writeVarLong(long value) {
        writeUnsignedVarLong((value << 1) ^ (value >> 63));
    }

    /** Writes a non-negative length or count in the unsigned variable-length form. */
    public void writeLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, was " + length);
        }
        writeUnsignedVarLong(length);
    }

    private void writeUnsignedVarLong(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            buffer[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buffer[size++] = (byte) value;
    }

    @Override
    public void writeDouble(double value) {
        writeLong(Double.doubleToRawLongBits(value));
    }

    @Override
    public void writeBoolean(boolean value) {
        writeByte(value ? 1 : 0);
    }

    @Override
    public void writeString(String value) {
        int length = value.length();
        int start = size;
        writeLength(length);
        ensure(length);
        byte[] target = buffer;
        int position = size;
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                // not ASCII after all: the byte length differs from the char length, so start over in UTF-8
                size = start;
                writeBytes(value.getBytes(StandardCharsets.UTF_8));
                return;
            }
            target[position++] = (byte) c;
        }
        size = position;
    }

    @Override
    public void writeBytes(byte[] value) {
        writeLength(value.length);
        writeRaw(value, 0, value.length);
    }

    /** Appends bytes without a length prefix. */
    public void writeRaw(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
    }
}
