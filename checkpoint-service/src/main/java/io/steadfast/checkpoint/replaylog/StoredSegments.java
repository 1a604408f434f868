package io.steadfast.checkpoint.replaylog;

import io.steadfast.runtime.topology.TopologyId;

/**
 * What one upload stored.
 *
 * @param topology the topology
 * @param segments segments written (new or replacing one with the same channel and firstSeq)
 * @param bytes    the frame bytes of those segments
 * @param replaced of those, segments that replaced one already stored
 * @param skipped  segments not written because their channel was truncated past them
 */
public record StoredSegments(TopologyId topology, int segments, long bytes, int replaced, int skipped) {
}
