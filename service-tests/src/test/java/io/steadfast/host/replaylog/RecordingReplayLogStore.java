package io.steadfast.host.replaylog;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real store with a record of the calls made to it, each noted before it is made: once its effect can be seen in
 * the store, the call is in the record (the server's request metrics are written only after the answer).
 */
final class RecordingReplayLogStore implements ReplayLogStore {

    final List<Integer> uploads = new CopyOnWriteArrayList<>();
    final List<Map.Entry<ChannelId, Long>> truncations = new CopyOnWriteArrayList<>();
    private final ReplayLogStore store;

    RecordingReplayLogStore(ReplayLogStore store) {
        this.store = store;
    }

    @Override
    public void store(TopologyId topology, List<ReplayLogSegment> segments) {
        uploads.add(segments.size());
        store.store(topology, segments);
    }

    @Override
    public void truncate(ChannelId channel, long upToSeq) {
        truncations.add(Map.entry(channel, upToSeq));
        store.truncate(channel, upToSeq);
    }

    @Override
    public List<LogSegment> segmentsAfter(ChannelId channel, long afterSeq, int incarnation) {
        return store.segmentsAfter(channel, afterSeq, incarnation);
    }
}
