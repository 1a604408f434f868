package io.steadfast.runtime.codec;

import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.CodecInput;
import java.nio.charset.StandardCharsets;

/**
 * A bounded {@link CodecInput} over a byte array. Every read checks the bounds first and throws
 * {@link CodecException} naming what was being read, so malformed input never reads out of range.
 */
public final class ByteArrayCodecInput implements CodecInput {

    private final byte[] buffer;
    private final int limit;
    private int position;

    public ByteArrayCodecInput(byte[] buffer) {
        this(buffer, 0, buffer.length);
    }

    public ByteArrayCodecInput(byte[] buffer, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > buffer.length) {
            throw new IllegalArgumentException("range " + offset + "+" + length + " outside " + buffer.length + " bytes");
        }
        this.buffer = buffer;
        this.position = offset;
        this.limit = offset + length;
    }

    public int position() {
        return position;
    }

    private void require(int bytes, String what) {
        if (bytes < 0 || limit - position < bytes) {
            throw new CodecException("truncated input: " + what + " needs " + bytes + " bytes at offset " + position
                    + ", " + (limit - position) + " left");
        }
    }

    @Override
    public int readByte() {
        require(1, "byte");
        return buffer[position++];
    }

    @Override
    public int readInt() {
        require(4, "int");
        int value = ((buffer[position] & 0xFF) << 24) | ((buffer[position + 1] & 0xFF) << 16)
                | ((buffer[position + 2] & 0xFF) << 8) | (buffer[position + 3] & 0xFF);
        position += 4;
        return value;
    }

    @Override
    public int readVarInt() {
        long raw = readUnsignedVarLong("varint");
        if (raw < 0 || raw > 0xFFFFFFFFL) {
            throw new CodecException("varint out of int range at offset " + position);
        }
        int zigzag = (int) raw;
        return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    @Override
    public long readLong() {
        require(8, "long");
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (buffer[position++] & 0xFF);
        }
        return value;
    }

    @Override
    public long readVarLong() {
        long zigzag = readUnsignedVarLong("varlong");
        return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    /** Reads a length or count written by {@link ByteArrayCodecOutput#writeLength}, checked against what is left. */
    public int readLength(String what) {
        long length = readUnsignedVarLong(what + " length");
        // an unsigned varlong above 2^63 - 1 reads as negative
        if (length < 0 || length > remaining()) {
            throw new CodecException(what + " length " + length + " exceeds the " + remaining() + " bytes left");
        }
        return (int) length;
    }

    /** Reads a count of items that each take at least one byte, checked against what is left. */
    public int readCount(String what) {
        return readLength(what);
    }

    private long readUnsignedVarLong(String what) {
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            require(1, what);
            byte b = buffer[position++];
            if (shift == 63 && (b & 0x7E) != 0) {
                throw new CodecException(what + " overflows 64 bits at offset " + (position - 1));
            }
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new CodecException(what + " longer than 10 bytes at offset " + position);
    }

    @Override
    public double readDouble() {
        return Double.longBitsToDouble(readLong());
    }

    @Override
    public boolean readBoolean() {
        int value = readByte();
        if (value != 0 && value != 1) {
            throw new CodecException("boolean byte must be 0 or 1, was " + value);
        }
        return value == 1;
    }

    @Override
    public String readString() {
        int length = readLength("string");
        String value = new String(buffer, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    @Override
    public byte[] readBytes() {
        int length = readLength("bytes");
        byte[] value = new byte[length];
        System.arraycopy(buffer, position, value, 0, length);
        position += length;
        return value;
    }

    @Override
    public int remaining() {
        return limit - position;
    }
}
