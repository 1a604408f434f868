package io.steadfast.protocol.store;

import io.steadfast.runtime.topology.TopologyId;

/**
 * The checkpoint-service's answer to {@code DELETE /api/v1/replay-logs/{topology}}: what deleting a cancelled
 * topology's replay logs dropped.
 *
 * @param segmentsDeleted the segments dropped, of every channel
 * @param bytesDeleted    their encoded size
 */
public record ReplayLogDeleted(TopologyId topology, long segmentsDeleted, long bytesDeleted) {
}
