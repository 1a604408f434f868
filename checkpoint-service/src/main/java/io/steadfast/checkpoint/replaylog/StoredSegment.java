package io.steadfast.checkpoint.replaylog;

import io.steadfast.runtime.plan.ChannelId;

/**
 * What the store knows of a stored segment (not its bytes).
 *
 * @param checkpoint the latest completed checkpoint when the host logged it, -1 for none
 */
public record StoredSegment(ChannelId channel, long firstSeq, long lastSeq, long checkpoint, int sizeBytes) {
}
