package io.steadfast.runtime.dataplane;

/** The kinds of message on the data plane wire; the code is the byte in the header. */
enum MessageType {
    /** Sender to receiver: a frame of events. */
    DATA(1),
    /** Receiver to sender: cumulative "delivered up to / consumed up to" plus the credit window. */
    ACK(2),
    /** Sender to receiver: "tell me where you are", sent after silence, on open and after a redirect. */
    SYNC(3),
    /** Receiver to sender: the receiver's position; the sender resends every retained frame after it. */
    SYNC_REPLY(4),
    /**
     * Sender to receiver: several consecutive frames of one channel in one message (a backlog the sender had ready
     * at once, typically its log replayed to a recovered receiver), counted as that many frames for credit.
     */
    BUNDLE(5);

    private final byte code;

    MessageType(int code) {
        this.code = (byte) code;
    }

    byte code() {
        return code;
    }

    /** @return the type for the code, or null if the code is unknown */
    static MessageType ofCode(byte code) {
        return switch (code) {
            case 1 -> DATA;
            case 2 -> ACK;
            case 3 -> SYNC;
            case 4 -> SYNC_REPLY;
            case 5 -> BUNDLE;
            default -> null;
        };
    }
}
