package io.steadfast.checkpoint.web;

/** A request body, or a part of it, is larger than this service accepts; names the part and the key that limits it. */
class ContentTooLargeException extends RuntimeException {

    private final String field;

    ContentTooLargeException(String field, String message) {
        super(message);
        this.field = field;
    }

    String field() {
        return field;
    }
}
