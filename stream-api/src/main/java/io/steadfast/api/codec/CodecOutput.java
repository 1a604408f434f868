package io.steadfast.api.codec;

import io.steadfast.api.annotation.PublicEvolving;

/** A sink of primitive values that a {@link ValueCodec} writes to. Not thread-safe. */
@PublicEvolving
public interface CodecOutput {

    void writeByte(int value);

    void writeInt(int value);

    /** Writes an int in a variable-length zig-zag form: small magnitudes take one byte. */
    void writeVarInt(int value);

    void writeLong(long value);

    /** Writes a long in a variable-length zig-zag form. */
    void writeVarLong(long value);

    void writeDouble(double value);

    void writeBoolean(boolean value);

    /** Writes a length-prefixed UTF-8 string. */
    void writeString(String value);

    /** Writes a length-prefixed byte array. */
    void writeBytes(byte[] value);
}
