package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands what one channel's output log appends to the data plane's {@link OutputLogSink}, in batches: a batch
 * becomes a {@link LogSegment} once it holds {@value #MAX_SEGMENT_BYTES} bytes or its oldest frame has waited
 * {@link #MAX_DELAY_NANOS} (checked on each append and on the IO loop's timer), and before a truncation is
 * reported, so that the sink sees segments and truncations in log order. A batch holds the frames themselves, not
 * copies: up to 256 KiB that may briefly outlive their spilling. With {@link OutputLogSink#NONE} it does nothing.
 * IO thread only.
 */
final class LogShipper {

    static final int MAX_SEGMENT_BYTES = 256 * 1024;
    static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final Logger log = LoggerFactory.getLogger(LogShipper.class);

    private final ChannelId channel;
    private final int incarnation;
    private final OutputLogSink sink;
    private final LogSegmentCodec codec;
    private final DataPlaneMetrics metrics;
    private final LongSupplier nanoTime;
    private final List<RetainedFrame> batch = new ArrayList<>();
    private long batchBytes;
    private long batchStartNanos;

    /** @param incarnation the incarnation of the channel's sending task, carried by every segment */
    LogShipper(ChannelId channel, int incarnation, OutputLogSink sink, LogSegmentCodec codec, DataPlaneMetrics metrics,
            LongSupplier nanoTime) {
        this.channel = channel;
        this.incarnation = incarnation;
        this.sink = sink;
        this.codec = codec;
        this.metrics = metrics;
        this.nanoTime = nanoTime;
    }

    /** A frame was appended to the log by the producer (not preloaded). */
    void logged(RetainedFrame frame) {
        if (sink == OutputLogSink.NONE) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (batch.isEmpty()) {
            batchStartNanos = now;
        }
        batch.add(frame);
        batchBytes += LogSegmentCodec.recordBytes(frame);
        if (batchBytes >= MAX_SEGMENT_BYTES || now - batchStartNanos >= MAX_DELAY_NANOS) {
            handOff();
        }
    }

    /** Hands off a batch that has waited long enough; called periodically, also while nothing is appended. */
    void onTimer() {
        if (!batch.isEmpty() && nanoTime.getAsLong() - batchStartNanos >= MAX_DELAY_NANOS) {
            handOff();
        }
    }

    /** The log was truncated: hands off what is batched, then tells the sink. */
    void truncated(long upToSeq) {
        if (!batch.isEmpty()) {
            handOff();
        }
        try {
            sink.truncated(channel, upToSeq);
        } catch (RuntimeException e) {
            log.error("Output log sink threw on the truncation of channel {} up to seq {}; sinks must not throw",
                    channel, upToSeq, e);
        }
    }

    /** The channel is closed: what is batched is not handed off. */
    void discard() {
        batch.clear();
        batchBytes = 0;
    }

    private void handOff() {
        LogSegment segment = codec.encode(channel, incarnation, batch);
        discard();
        metrics.logSegmentsShipped.increment();
        try {
            sink.logged(segment);
        } catch (RuntimeException e) {
            log.error("Output log sink threw on segment [{}, {}] of channel {}; sinks must not throw", segment.firstSeq(),
                    segment.lastSeq(), channel, e);
        }
    }
}
