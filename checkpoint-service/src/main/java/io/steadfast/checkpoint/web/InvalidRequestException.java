package io.steadfast.checkpoint.web;

import org.jspecify.annotations.Nullable;

/** A request parameter or body field that cannot be used; names the field and the value seen. */
class InvalidRequestException extends RuntimeException {

    private final String field;
    private final @Nullable String value;

    InvalidRequestException(String field, @Nullable String value, String message) {
        super(message);
        this.field = field;
        this.value = value;
    }

    String field() {
        return field;
    }

    @Nullable String value() {
        return value;
    }
}
