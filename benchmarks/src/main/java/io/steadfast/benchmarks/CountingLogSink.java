package io.steadfast.benchmarks;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.dataplane.OutputLogSink;
import io.steadfast.runtime.plan.ChannelId;
import java.util.concurrent.atomic.LongAdder;

/**
 * Stands in for the checkpoint-service in benchmarks: takes the output-log segments a data plane hands over
 * (already batched and encoded, as for shipping) and only counts their bytes.
 */
final class CountingLogSink implements OutputLogSink {

    private final LongAdder bytes = new LongAdder();

    @Override
    public void logged(LogSegment segment) {
        bytes.add(segment.frames().length);
    }

    @Override
    public void truncated(ChannelId channel, long upToSeq) {
    }

    long bytes() {
        return bytes.sum();
    }
}
