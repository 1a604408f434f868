package io.steadfast.runtime.task;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one task. Written only by the task thread (with release stores, no contention), read by any
 * thread for reporting.
 */
public final class TaskMetrics {

    private final AtomicLong recordsIn = new AtomicLong();
    private final AtomicLong recordsOut = new AtomicLong();
    private final AtomicLong framesIn = new AtomicLong();
    private final AtomicLong bytesIn = new AtomicLong();
    private final AtomicLong framesOut = new AtomicLong();
    private final AtomicLong malformedFrames = new AtomicLong();
    private final AtomicLong backpressuredNanos = new AtomicLong();

    void addRecordsIn(long n) {
        recordsIn.setRelease(recordsIn.getPlain() + n);
    }

    void addRecordsOut(long n) {
        recordsOut.setRelease(recordsOut.getPlain() + n);
    }

    void addFrameIn(int payloadBytes) {
        framesIn.setRelease(framesIn.getPlain() + 1);
        bytesIn.setRelease(bytesIn.getPlain() + payloadBytes);
    }

    void addFrameOut() {
        framesOut.setRelease(framesOut.getPlain() + 1);
    }

    void addMalformedFrame() {
        malformedFrames.setRelease(malformedFrames.getPlain() + 1);
    }

    void addBackpressuredNanos(long nanos) {
        backpressuredNanos.setRelease(backpressuredNanos.getPlain() + nanos);
    }

    public long recordsIn() {
        return recordsIn.getAcquire();
    }

    public long recordsOut() {
        return recordsOut.getAcquire();
    }

    public long framesIn() {
        return framesIn.getAcquire();
    }

    /** Payload bytes of the input frames taken. */
    public long bytesIn() {
        return bytesIn.getAcquire();
    }

    public long framesOut() {
        return framesOut.getAcquire();
    }

    public long malformedFrames() {
        return malformedFrames.getAcquire();
    }

    public long backpressuredNanos() {
        return backpressuredNanos.getAcquire();
    }
}
