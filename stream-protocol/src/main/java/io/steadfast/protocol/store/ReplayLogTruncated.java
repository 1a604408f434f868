package io.steadfast.protocol.store;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;

/**
 * The checkpoint-service's answer to {@code DELETE /api/v1/replay-logs/{topology}/channels/{channel}/segments?upTo=}:
 * what truncating a channel's replay log at a completed checkpoint dropped.
 *
 * @param segmentsDeleted the segments dropped, each wholly at or below {@code upTo}
 * @param bytesDeleted    their encoded size
 */
public record ReplayLogTruncated(TopologyId topology, ChannelId channel, long segmentsDeleted, long bytesDeleted) {
}
