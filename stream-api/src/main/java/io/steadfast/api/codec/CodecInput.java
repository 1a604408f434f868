package io.steadfast.api.codec;

import io.steadfast.api.annotation.PublicEvolving;

/**
 * A source of primitive values that a {@link ValueCodec} reads from. Every read throws
 * {@link CodecException} when the input is truncated or malformed; it never reads past its bounds.
 */
@PublicEvolving
public interface CodecInput {

    int readByte();

    int readInt();

    int readVarInt();

    long readLong();

    long readVarLong();

    double readDouble();

    boolean readBoolean();

    String readString();

    byte[] readBytes();

    /** Bytes left to read. */
    int remaining();
}
