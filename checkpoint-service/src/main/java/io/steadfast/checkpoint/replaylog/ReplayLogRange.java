package io.steadfast.checkpoint.replaylog;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogBatchWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/** The segments chosen to replay a channel after a position; their bytes are read from the store as they are written. */
public interface ReplayLogRange {

    ChannelId channel();

    /** The segments, in firstSeq order. */
    List<StoredSegment> segments();

    /** The size of what {@link #transferTo} writes. */
    default long encodedSize() {
        return ReplayLogBatchWriter.HEADER_BYTES + segments().stream()
                .mapToLong(segment -> ReplayLogBatchWriter.encodedSize(channel().toString(), segment.sizeBytes()))
                .sum();
    }

    /**
     * Writes the segments as a replay-log batch ({@link ReplayLogBatchWriter}), a few segments in memory at a time;
     * does not close {@code out}.
     *
     * @throws io.steadfast.runtime.replaylog.ReplayLogGapException when a segment was truncated while being read
     */
    void transferTo(OutputStream out) throws IOException;
}
