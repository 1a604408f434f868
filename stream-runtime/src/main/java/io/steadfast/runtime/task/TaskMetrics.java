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
    private final AtomicLong recordsSent = new AtomicLong();
    private final AtomicLong outputWaitNanos = new AtomicLong();

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

    /**
     * Counts a frame sent with {@code records} events in it, which waited {@code waitedNanos} in all from the start
     * of the turns that emitted them (see {@link #addEmittedDuringTurn}).
     */
    /** Counts a source's poll that returned events, as the source's input frame. */
    void addPoll() {
        framesIn.setRelease(framesIn.getPlain() + 1);
    }

    void addFrameOut(int records, long waitedNanos) {
        framesOut.setRelease(framesOut.getPlain() + 1);
        recordsSent.setRelease(recordsSent.getPlain() + records);
        outputWaitNanos.setRelease(outputWaitNanos.getPlain() + waitedNanos);
    }

    /**
     * Takes off the output wait what was the emitting turn's own work: {@code channelWrites} events were written to
     * output channels during a turn of {@code turnNanos}, stamped with its start but emitted, on average, half-way
     * through it. Without it a record's processing would count twice, in the residence and in the output wait.
     */
    void addEmittedDuringTurn(long channelWrites, long turnNanos) {
        outputWaitNanos.setRelease(outputWaitNanos.getPlain() - channelWrites * (turnNanos / 2));
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

    /** Input frames taken; for a source, polls that returned events. */
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

    /** Events sent in output frames, one per receiving channel. */
    public long recordsSent() {
        return recordsSent.getAcquire();
    }

    /**
     * The time the events sent waited in output frames, summed over them: from their emission to their frame
     * leaving the task (the batching delay, a linger or a frame filling up). Divided by {@link #recordsSent()}, the
     * mean a record meets there; a window's difference of it can be slightly off, by the records emitted in it and
     * still buffered at its end.
     */
    public long outputWaitNanos() {
        return outputWaitNanos.getAcquire();
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
