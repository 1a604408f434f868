package io.steadfast.runtime.replaylog;

import io.steadfast.runtime.plan.ChannelId;

/**
 * A channel's replay log does not hold every record after a position: records {@code missingFrom..missingTo} are
 * not stored (truncated already, never shipped, or dropped by the sending host). A recovery that needs them must
 * fall back to a global restore.
 */
public class ReplayLogGapException extends RuntimeException {

    private final ChannelId channel;
    private final long after;
    private final long missingFrom;
    private final long missingTo;

    public ReplayLogGapException(ChannelId channel, long after, long missingFrom, long missingTo) {
        super("The replay log of channel " + channel + " misses records " + missingFrom + ".." + missingTo
                + " of those after " + after + " (truncated at a completed checkpoint, never shipped, or dropped by"
                + " the sending host's shipper); it cannot replay the channel from there: recover the topology"
                + " globally");
        this.channel = channel;
        this.after = after;
        this.missingFrom = missingFrom;
        this.missingTo = missingTo;
    }

    public ChannelId channel() {
        return channel;
    }

    public long after() {
        return after;
    }

    public long missingFrom() {
        return missingFrom;
    }

    public long missingTo() {
        return missingTo;
    }
}
