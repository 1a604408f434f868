package io.steadfast.model;

/**
 * What a record spends between leaving one task and entering the next, besides queueing: the wait for its frame
 * to be sent, and the network.
 *
 * @param meanLingerSeconds the mean time a record waits in its output frame before the frame is sent. A frame goes
 *                          out when full, or at the end of the linger period its first record fell in: about half
 *                          the linger (20 ms) for a quiet channel, at most the short linger (1 ms) for a busy one,
 *                          near 0 for a channel that fills frames faster; best measured
 * @param networkSeconds the transfer of a frame to the next task: near 0 on one host (the frame is handed over in
 *                       memory), a network round trip's half between hosts
 */
public record ChannelCost(double meanLingerSeconds, double networkSeconds) {

    /** No cost: the channel adds nothing to a record's delay. */
    public static final ChannelCost NONE = new ChannelCost(0, 0);

    public ChannelCost {
        Finite.atLeastZero("ChannelCost", "meanLingerSeconds", meanLingerSeconds);
        Finite.atLeastZero("ChannelCost", "networkSeconds", networkSeconds);
    }

    /** The channel's share of a record's delay: linger + network. */
    public double seconds() {
        return meanLingerSeconds + networkSeconds;
    }
}
