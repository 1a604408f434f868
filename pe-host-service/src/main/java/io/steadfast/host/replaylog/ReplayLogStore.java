package io.steadfast.host.replaylog;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.replaylog.ReplayLogSupersededException;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;

/**
 * Where hosts keep the replay logs of their channels: the checkpoint-service ({@link HttpReplayLogStore}).
 * Implementations are thread-safe. Every method throws {@link ReplayLogStoreException} when the store cannot be
 * reached or fails (worth retrying), and {@link ReplayLogRejectedException} when it refuses the request (not).
 */
public interface ReplayLogStore {

    /**
     * Stores segments of the topology's channels; storing a segment again replaces it.
     *
     * @throws ReplayLogSupersededException when a segment comes from an incarnation of its sending task older than one
     *                                      its channel's log has seen (a newer copy of the sender took over); nothing
     *                                      of the call is stored then, and sending it again would not help
     */
    void store(TopologyId topology, List<ReplayLogSegment> segments);

    /** Drops the channel's segments whose lastSeq is at or below {@code upToSeq}. */
    void truncate(ChannelId channel, long upToSeq);

    /**
     * The segments that replay {@code channel} after record {@code afterSeq}, in order: the first holds record
     * {@code afterSeq + 1}, each next one continues where the previous ended (they may overlap). Empty when the
     * store holds nothing after {@code afterSeq}; whether the sender logged more than the store holds is not known
     * here (see {@link ReplayLogShipper#completeAfter}). From then on the store refuses segments of the channel from
     * incarnations of its sender below {@code incarnation}: the predecessor of the sender that reads the log to
     * replay it adds nothing to it after the read.
     *
     * @param incarnation the incarnation of the sending task that is being recovered and reads its predecessor's log
     * @throws ReplayLogGapException when the store lacks some records after {@code afterSeq}: the channel cannot be
     *                               replayed from there
     */
    List<LogSegment> segmentsAfter(ChannelId channel, long afterSeq, int incarnation);
}
