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
    private final AtomicLong busyNanos = new AtomicLong();
    private final AtomicLong residenceNanos = new AtomicLong();

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

    /**
     * Counts a stretch of work on the task thread: processing {@code records} records of one input frame that
     * waited {@code waitedNanos} since it reached the host (or polling them from a source, with no wait), taking
     * {@code busyNanos}. Each record is taken to finish at an even share of the stretch, so the records' residence
     * is the wait plus, on average, half the stretch.
     */
    void addProcessing(long records, long waitedNanos, long busyNanos) {
        this.busyNanos.setRelease(this.busyNanos.getPlain() + busyNanos);
        if (records > 0) {
            residenceNanos.setRelease(residenceNanos.getPlain() + records * waitedNanos
                    + busyNanos * (records + 1) / 2);
        }
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

    /** Time the task thread spent processing input frames and polling its source (not parked, not backpressured). */
    public long busyNanos() {
        return busyNanos.getAcquire();
    }

    /**
     * The time the records taken in spent in this task, summed over them: from their frame reaching the host to
     * their processing, so queueing (behind other frames, behind a barrier's alignment) and processing. Divided by
     * {@link #recordsIn()}, the mean latency a record meets at this task.
     */
    public long residenceNanos() {
        return residenceNanos.getAcquire();
    }
}
