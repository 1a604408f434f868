package io.steadfast.runtime.voting;

/**
 * The input a vote is about: its origin (see {@link VersionBallot#origin()}) and its sequence number there. Kept in
 * keyed state as text, {@code origin:seq}.
 */
record InputId(String origin, long seq) {

    String text() {
        return origin + ":" + seq;
    }

    static InputId parse(String text) {
        int colon = text.lastIndexOf(':');
        return new InputId(text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
    }
}
