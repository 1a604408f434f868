package io.steadfast.api.codec;

import io.steadfast.api.annotation.PublicEvolving;

/** Bytes could not be decoded: truncated, malformed, or of an unknown type. */
@PublicEvolving
public class CodecException extends RuntimeException {

    public CodecException(String message) {
        super(message);
    }

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
