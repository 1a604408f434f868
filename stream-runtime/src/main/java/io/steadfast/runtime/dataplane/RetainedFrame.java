package io.steadfast.runtime.dataplane;

/**
 * A DATA frame a sender keeps until the receiver reports it consumed (or, in an output log, until truncated).
 * The header is encoded once by the producing thread; header and payload arrays are never modified afterwards,
 * so they can be sent again as often as resyncs require. Immutable.
 */
final class RetainedFrame {

    final long firstSeq;
    final int eventCount;
    final byte[] header;
    final byte[] payload;

    RetainedFrame(long firstSeq, int eventCount, byte[] header, byte[] payload) {
        this.firstSeq = firstSeq;
        this.eventCount = eventCount;
        this.header = header;
        this.payload = payload;
    }

    long lastSeq() {
        return firstSeq + eventCount - 1;
    }

    int wireBytes() {
        return header.length + payload.length;
    }
}
