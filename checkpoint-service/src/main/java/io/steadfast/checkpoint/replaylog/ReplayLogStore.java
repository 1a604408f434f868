package io.steadfast.checkpoint.replaylog;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;

/**
 * The replay logs of the topologies' channels: the segments of output log the hosts ship, kept until a completed
 * checkpoint truncates them or the topology is deleted. Thread-safe. Every write is durable when the method returns.
 */
public interface ReplayLogStore {

    /**
     * Stores segments of {@code topology}'s channels. A segment is identified by its channel and firstSeq: storing
     * one again replaces it, so a repeated upload stores nothing twice. Segments that end at or before their
     * channel's truncation point are skipped (nothing would ever read them).
     *
     * @throws IllegalArgumentException when a segment's channel belongs to another topology
     */
    StoredSegments store(TopologyId topology, List<ReplayLogSegment> segments);

    /**
     * The segments that replay {@code channel} after record {@code after}: the first holds record {@code after + 1},
     * each next one starts at or before the record after the end of the one before it, the last holds the last
     * record stored. Empty when nothing after {@code after} is stored.
     *
     * @throws ReplayLogGapException when some record after {@code after} and before the last one stored is not
     *                               stored, or was truncated
     */
    ReplayLogRange after(ChannelId channel, long after);

    /** Deletes the channel's segments whose lastSeq is at or below {@code upToSeq}, and remembers the position. */
    DeletedSegments truncate(ChannelId channel, long upToSeq);

    /** Deletes every segment and truncation point of the topology. */
    DeletedSegments deleteTopology(TopologyId topology);
}
