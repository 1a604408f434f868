package io.steadfast.runtime.replaylog;

import io.steadfast.runtime.plan.ChannelId;

/**
 * Segments of a channel's replay log come from an incarnation of its sending task older than one the log has seen
 * (one that shipped segments of its own, or read the log for its recovery): a newer copy of the sender took over, and
 * the old one, frozen or cut off meanwhile, must not add to the log. Not worth retrying.
 */
public class ReplayLogSupersededException extends RuntimeException {

    private final ChannelId channel;
    private final int incarnation;
    private final int minimum;

    public ReplayLogSupersededException(ChannelId channel, int incarnation, int minimum) {
        super("The replay log of channel " + channel + " takes segments of its sending task's incarnation " + minimum
                + " or later only, not of incarnation " + incarnation + ": a newer copy of the sending task took over"
                + " (it read the log for its recovery, or shipped segments of its own); the segments are not stored");
        this.channel = channel;
        this.incarnation = incarnation;
        this.minimum = minimum;
    }

    public ChannelId channel() {
        return channel;
    }

    /** The incarnation of the segments refused. */
    public int incarnation() {
        return incarnation;
    }

    /** The oldest incarnation whose segments the channel's log takes. */
    public int minimum() {
        return minimum;
    }
}
