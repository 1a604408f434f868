package io.steadfast.checkpoint.replaylog;

import io.steadfast.runtime.plan.ChannelId;

/**
 * What the store knows of a stored segment (not its bytes).
 *
 * @param incarnation the incarnation of the sending task that logged it
 * @param checkpoint  the latest completed checkpoint when the host logged it, -1 for none
 */
public record StoredSegment(ChannelId channel, int incarnation, long firstSeq, long lastSeq, long checkpoint,
                            int sizeBytes) {
}
