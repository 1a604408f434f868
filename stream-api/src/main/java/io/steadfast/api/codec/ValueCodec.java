package io.steadfast.api.codec;

import io.steadfast.api.annotation.PublicEvolving;

/**
 * Encodes values of one type for state snapshots and the wire. Implementations must be stateless and
 * thread-safe, and {@code decode(encode(v))} must equal {@code v}. Values are never null here: the runtime
 * encodes null itself.
 */
@PublicEvolving
public interface ValueCodec<T> {

    /** A stable name; part of the snapshot and wire formats, so never change it once data exists. */
    String name();

    /** The Java type this codec handles. */
    Class<T> type();

    void encode(T value, CodecOutput out);

    T decode(CodecInput in);
}
