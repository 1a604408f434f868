package io.steadfast.checkpoint.replaylog;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.replaylog.ReplayLogSupersededException;
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
     * <p>Each channel's log takes segments of the newest incarnation of its sending task it has seen (see
     * {@link #fence}) or of a newer one, which becomes the newest: segments of an older one come from a copy of the
     * sender that a newer one replaced, and are refused.
     *
     * @throws IllegalArgumentException when a segment's channel belongs to another topology
     * @throws ReplayLogSupersededException when a segment is of an older incarnation of its sender than its channel's
     *                                      log (or another segment of the batch) has seen; nothing is stored then
     */
    StoredSegments store(TopologyId topology, List<ReplayLogSegment> segments);

    /**
     * Refuses, from now on, segments of {@code channel} from incarnations of its sending task below
     * {@code incarnation}; never lowers what it refuses. A recovering sender's read of its predecessor's log does this
     * first, so that the predecessor, if it was only frozen, adds nothing to the log after the read.
     */
    void fence(ChannelId channel, int incarnation);

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
