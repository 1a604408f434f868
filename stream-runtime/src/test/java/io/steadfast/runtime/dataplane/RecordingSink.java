package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link OutputLogSink} for tests: records every segment and truncation in the order the data plane reports
 * them (on its IO thread), readable from any thread.
 */
final class RecordingSink implements OutputLogSink {

    record Truncation(ChannelId channel, long upToSeq) {
    }

    private final List<Object> events = new ArrayList<>();

    @Override
    public synchronized void logged(LogSegment segment) {
        events.add(segment);
    }

    @Override
    public synchronized void truncated(ChannelId channel, long upToSeq) {
        events.add(new Truncation(channel, upToSeq));
    }

    /** Segments and truncations in the order reported. */
    synchronized List<Object> events() {
        return List.copyOf(events);
    }

    synchronized List<LogSegment> segments() {
        return events.stream().filter(LogSegment.class::isInstance).map(LogSegment.class::cast).toList();
    }

    /** The last seq of the last segment, 0 before any. */
    long lastSeq() {
        List<LogSegment> segments = segments();
        return segments.isEmpty() ? 0 : segments.get(segments.size() - 1).lastSeq();
    }

    /** Every frame of every segment, decoded, in order. */
    List<RetainedFrame> frames() {
        LogSegmentCodec codec = new LogSegmentCodec(TestFrames.CODEC);
        List<RetainedFrame> frames = new ArrayList<>();
        for (LogSegment segment : segments()) {
            frames.addAll(codec.decode(segment, 0));
        }
        return frames;
    }
}
