package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.runtime.codec.RecordBatchWriter;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import io.steadfast.runtime.recovery.DecisionForwarder;
import java.util.function.LongSupplier;

/**
 * Batches the records of one output channel into frames and sends them. Task thread only.
 *
 * <p>The channel's watermark travels as an unsequenced record, about once per watermark interval: added to a frame
 * sent on linger or size if it moved and the interval passed since it was last sent, or, on an idle channel, as a
 * watermark-only frame whether it moved or not, at the end of the interval it was last sent in (intervals aligned on
 * the JVM's clock, like the linger periods, so that the idle channels of a host send together: each at its own time,
 * a 32-task job idling on three hosts woke a task thread and sent a message per channel and interval, about 1,700 a
 * second per host); right away before a barrier, at the end and on a flush if it moved. (One per frame would double
 * what a receiver does per frame, and what a receiver that logs its decisions must log, for no gain: the interval is
 * what bounds how late windows fire.) A frame without sequenced records is not retained or resent by the data plane, so repeating the watermark is what
 * heals one lost in a reconnect, and what brings a receiver restored elsewhere up to date.
 */
final class ChannelWriter {

    private final FrameSender sender;
    private final DecisionForwarder decisions;
    private Runnable beforeSend = () -> { };
    private final RecordBatchWriter batch;
    private final TaskSettings settings;
    private final TaskMetrics metrics;
    private final LongSupplier nanoClock;
    private long nextSeq = 1;
    private long batchStartNanos;
    /** The events in the batch, and the sum of their stamps' distances from {@link #batchStartNanos}. */
    private int batchEvents;
    private long batchStampOffsetsNanos;
    private long lastWatermarkSent = Long.MIN_VALUE;
    private long lastWatermarkNanos;

    ChannelWriter(FrameSender sender, ValueCodecRegistry codecs, TaskSettings settings, TaskMetrics metrics) {
        this(sender, null, codecs, settings, metrics);
    }

    /** @param decisions what the frames carry to a receiver on another host; null for none */
    ChannelWriter(FrameSender sender, DecisionForwarder decisions, ValueCodecRegistry codecs,
                  TaskSettings settings, TaskMetrics metrics) {
        this(sender, decisions, codecs, settings, metrics, System::nanoTime);
    }

    /**
     * @param nanoClock reads the time a frame that fills up mid-turn leaves at, for the output wait: the turn's stamp
     *                  would count its records as sent when the turn began
     */
    ChannelWriter(FrameSender sender, DecisionForwarder decisions, ValueCodecRegistry codecs,
                  TaskSettings settings, TaskMetrics metrics, LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.sender = sender;
        this.decisions = decisions;
        this.batch = new RecordBatchWriter(codecs, settings.frameTargetBytes() + 1024);
        this.settings = settings;
        this.metrics = metrics;
    }

    FrameSender sender() {
        return sender;
    }

    /** The sequence number of the last event or barrier sent (0 before any). */
    long lastSeq() {
        return nextSeq - 1;
    }

    /** Runs before every frame is sent: the task writes its pending decisions to its log. */
    void beforeSend(Runnable action) {
        this.beforeSend = action;
    }

    /** The sequence number the next event or barrier gets; for a restored task, one after its barrier's. */
    void resumeAt(long seq) {
        if (!batch.isEmpty()) {
            throw new IllegalStateException("cannot renumber channel " + sender.channel() + " with records buffered");
        }
        this.nextSeq = seq;
    }

    void add(Event<Object> event, long nowNanos) {
        if (batch.isEmpty()) {
            batchStartNanos = nowNanos;
        }
        batch.addEvent(event);
        batchEvents++;
        batchStampOffsetsNanos += nowNanos - batchStartNanos;
        if (batch.sizeInBytes() >= settings.frameTargetBytes() || batch.records() >= settings.maxRecordsPerFrame()) {
            send(nowNanos, nanoClock.getAsLong());
        }
    }

    /**
     * Sends the batch if its linger time is up, and a watermark-only frame when the watermark is due (see the
     * class comment).
     *
     * @return nanos until this channel next needs attention, or {@link Long#MAX_VALUE}
     */
    long flushIfDue(long nowNanos, long watermark) {
        long untilBatchDue = Long.MAX_VALUE;
        if (!batch.isEmpty()) {
            long due = lingerEnds(batchStartNanos, settings.linger().toNanos());
            if (batch.records() >= settings.shortLingerRecords()) {
                // from the batch's first record, not aligned: a period boundary would cut in two the frames of a
                // channel that fills one in about a short linger (see docs/performance.md)
                due = Math.min(due, batchStartNanos + settings.shortLinger().toNanos());
            }
            if (nowNanos < due) {
                untilBatchDue = due - nowNanos;
            } else {
                addWatermarkIfDue(watermark, nowNanos);
                send(nowNanos);
            }
        }
        if (!batch.isEmpty() || watermark == Long.MIN_VALUE) {
            return untilBatchDue;
        }
        long interval = settings.watermarkInterval().toNanos();
        boolean first = lastWatermarkSent == Long.MIN_VALUE;
        boolean ended = watermark == Long.MAX_VALUE && lastWatermarkSent < Long.MAX_VALUE;
        long due = lingerEnds(lastWatermarkNanos, interval);
        if (first || ended || nowNanos >= due) {
            addWatermark(watermark, nowNanos);
            send(nowNanos);
            due = lingerEnds(nowNanos, interval);
        }
        return Math.min(untilBatchDue, due - nowNanos);
    }

    /**
     * When a batch started at {@code startNanos} is due: at the end of the linger period it started in, periods
     * being aligned on the JVM's clock, so that every channel of every task of a host sends its frames at the same
     * instants. The data plane then carries the frames of many channels to a peer in one message (a job of many
     * channels at a modest rate otherwise cost a message, and a wake-up on both sides, per frame of a few records).
     * A record waits at most the linger, as with a period from each batch's first record, and less on average.
     */
    static long lingerEnds(long startNanos, long lingerNanos) {
        return Math.floorDiv(startNanos, lingerNanos) * lingerNanos + lingerNanos;
    }

    /** Sends whatever is buffered, with the watermark if it moved. */
    void flush(long nowNanos, long watermark) {
        addWatermarkIfMoved(watermark, nowNanos);
        if (!batch.isEmpty()) {
            send(nowNanos);
        }
    }

    /**
     * Sends what is buffered, then the barrier, so that the barrier follows every record emitted before it.
     *
     * @return the barrier's sequence number on this channel
     */
    long sendBarrier(long checkpointId, long nowNanos, long watermark) {
        addWatermarkIfMoved(watermark, nowNanos);
        batch.addBarrier(checkpointId);
        long barrierSeq = nextSeq + batch.sequencedRecords() - 1;
        send(nowNanos);
        return barrierSeq;
    }

    boolean isDrained(long watermark) {
        return batch.isEmpty() && lastWatermarkSent >= watermark;
    }

    /** Adds the watermark if it ended, or if it moved and the watermark interval passed since it was last sent. */
    private boolean addWatermarkIfDue(long watermark, long nowNanos) {
        boolean ended = watermark == Long.MAX_VALUE && lastWatermarkSent < Long.MAX_VALUE;
        if (ended || (watermark > lastWatermarkSent
                && nowNanos - lastWatermarkNanos >= settings.watermarkInterval().toNanos())) {
            addWatermark(watermark, nowNanos);
            return true;
        }
        return false;
    }

    private void addWatermarkIfMoved(long watermark, long nowNanos) {
        if (watermark > lastWatermarkSent) {
            addWatermark(watermark, nowNanos);
        }
    }

    private void addWatermark(long watermark, long nowNanos) {
        batch.addWatermark(watermark);
        lastWatermarkSent = watermark;
        lastWatermarkNanos = nowNanos;
    }

    private void send(long nowNanos) {
        send(nowNanos, nowNanos);
    }

    /** @param sentNanos when the frame really leaves, for the output wait; {@code nowNanos} starts the next batch */
    private void send(long nowNanos, long sentNanos) {
        int sequenced = batch.sequencedRecords();
        beforeSend.run();
        if (decisions != null && sequenced > 0) {
            decisions.appendTo(batch); // before the records that depend on them are out
        }
        sender.send(batch.drain(), sequenced);
        nextSeq += sequenced;
        metrics.addFrameOut(batchEvents, batchEvents * (sentNanos - batchStartNanos) - batchStampOffsetsNanos);
        batchEvents = 0;
        batchStampOffsetsNanos = 0;
        batchStartNanos = nowNanos;
    }
}
