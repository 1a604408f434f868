package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.runtime.codec.RecordBatchWriter;
import io.steadfast.runtime.codec.ValueCodecRegistry;

/** Batches the records of one output channel into frames and sends them. Task thread only. */
final class ChannelWriter {

    private final FrameSender sender;
    private final RecordBatchWriter batch;
    private final TaskSettings settings;
    private final TaskMetrics metrics;
    private long batchStartNanos;
    private long lastWatermarkSent = Long.MIN_VALUE;
    private long lastWatermarkNanos;

    ChannelWriter(FrameSender sender, ValueCodecRegistry codecs, TaskSettings settings, TaskMetrics metrics) {
        this.sender = sender;
        this.batch = new RecordBatchWriter(codecs, settings.frameTargetBytes() + 1024);
        this.settings = settings;
        this.metrics = metrics;
    }

    FrameSender sender() {
        return sender;
    }

    void add(Event<Object> event, long nowNanos) {
        if (batch.isEmpty()) {
            batchStartNanos = nowNanos;
        }
        batch.addEvent(event);
        if (batch.sizeInBytes() >= settings.frameTargetBytes() || batch.records() >= settings.maxRecordsPerFrame()) {
            send(nowNanos);
        }
    }

    /**
     * Sends the batch if its linger time is up, adding the watermark if it moved; sends a watermark-only frame
     * to an idle channel whose watermark lags for longer than the watermark interval.
     *
     * @return nanos until this channel next needs attention, or {@link Long#MAX_VALUE}
     */
    long flushIfDue(long nowNanos, long watermark) {
        long lingerNanos = settings.linger().toNanos();
        if (!batch.isEmpty()) {
            long due = batchStartNanos + lingerNanos;
            if (nowNanos >= due) {
                addWatermarkIfMoved(watermark, nowNanos);
                send(nowNanos);
                return Long.MAX_VALUE;
            }
            return due - nowNanos;
        }
        if (watermark > lastWatermarkSent) {
            long due = lastWatermarkNanos + settings.watermarkInterval().toNanos();
            if (nowNanos >= due || watermark == Long.MAX_VALUE) {
                if (sender.hasCredit()) {
                    addWatermarkIfMoved(watermark, nowNanos);
                    send(nowNanos);
                }
                return Long.MAX_VALUE;
            }
            return due - nowNanos;
        }
        return Long.MAX_VALUE;
    }

    /** Sends whatever is buffered, with the watermark if it moved. */
    void flush(long nowNanos, long watermark) {
        addWatermarkIfMoved(watermark, nowNanos);
        if (!batch.isEmpty()) {
            send(nowNanos);
        }
    }

    /** Sends what is buffered, then the barrier, so that the barrier follows every record emitted before it. */
    void sendBarrier(long checkpointId, long nowNanos, long watermark) {
        addWatermarkIfMoved(watermark, nowNanos);
        batch.addBarrier(checkpointId);
        send(nowNanos);
    }

    boolean isDrained(long watermark) {
        return batch.isEmpty() && lastWatermarkSent >= watermark;
    }

    private void addWatermarkIfMoved(long watermark, long nowNanos) {
        if (watermark > lastWatermarkSent) {
            batch.addWatermark(watermark);
            lastWatermarkSent = watermark;
            lastWatermarkNanos = nowNanos;
        }
    }

    private void send(long nowNanos) {
        int records = batch.records();
        sender.send(batch.drain(), records);
        metrics.addFrameOut();
        batchStartNanos = nowNanos;
    }
}
