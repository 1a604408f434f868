package io.steadfast.runtime.recovery;

import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import java.util.Arrays;

/**
 * The decisions of one task since its last completed checkpoint, as bytes addressed by an absolute offset
 * that survives truncation. The task's thread appends; the writers of its output channels and of same-host
 * downstream tasks read what they have not yet sent, to carry it in their frames. Consecutive runs from the
 * same input merge until someone reads, so a single-input task logs a few bytes per frame it sends.
 * Thread-safe (a monitor: appends are per frame, not per record).
 */
public final class DecisionLog {

    private byte[] bytes = new byte[256];
    private int length;
    private long base;
    private int openRunInput = -1;
    private long openRunRecords;
    private final ByteArrayCodecOutput scratch = new ByteArrayCodecOutput(32);

    /** An empty log whose first byte will have offset {@code base} (a recovered task's log goes on from there). */
    public DecisionLog(long base) {
        this.base = base;
    }

    /** The task took {@code records} sequenced records from input {@code input}. */
    public synchronized void recordRun(int input, int records) {
        if (records <= 0) {
            return;
        }
        if (openRunInput != input || openRunRecords + records > Integer.MAX_VALUE) {
            closeRun();
            openRunInput = input;
        }
        openRunRecords += records;
    }

    public synchronized void append(Decision decision) {
        closeRun();
        scratch.reset();
        Decision.write(decision, scratch);
        appendBytes(scratch.toByteArray());
    }

    /** Appends encoded decisions verbatim: a recovered task's log, taken over from its receivers. */
    public synchronized void appendEncoded(byte[] encoded) {
        closeRun();
        appendBytes(encoded);
    }

    /** The offset after the last decision, the open run included. */
    public synchronized long end() {
        closeRun();
        return base + length;
    }

    public synchronized long base() {
        return base;
    }

    /**
     * The bytes from {@code fromOffset} (raised to the base if it lies before) to the end, closing the open run
     * first; empty if nothing is new.
     */
    public synchronized Slice readFrom(long fromOffset) {
        closeRun();
        long from = Math.max(fromOffset, base);
        int start = (int) (from - base);
        return new Slice(base, from, start >= length ? new byte[0] : Arrays.copyOfRange(bytes, start, length));
    }

    /** Drops what lies before {@code offset}: a checkpoint covering it completed. */
    public synchronized void truncateBefore(long offset) {
        closeRun();
        if (offset <= base) {
            return;
        }
        int drop = (int) Math.min(length, offset - base);
        System.arraycopy(bytes, drop, bytes, 0, length - drop);
        length -= drop;
        base += drop;
    }

    private void closeRun() {
        if (openRunInput >= 0) {
            scratch.reset();
            Decision.write(new Decision.Run(openRunInput, (int) openRunRecords), scratch);
            appendBytes(scratch.toByteArray());
            openRunInput = -1;
            openRunRecords = 0;
        }
    }

    private void appendBytes(byte[] encoded) {
        if (length + encoded.length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + encoded.length));
        }
        System.arraycopy(encoded, 0, bytes, length, encoded.length);
        length += encoded.length;
    }

    /**
     * Decisions read from a log: {@code bytes} start at offset {@code from}; the log then held nothing
     * before {@code base}.
     */
    public record Slice(long base, long from, byte[] bytes) {
    }
}
