package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;

/** An {@link InboundFrame} handed to a listener; {@link #consumed()} reports back to its channel. */
final class DeliveredFrame implements InboundFrame {

    private final InboundChannelState owner;
    private final long firstSeq;
    private final int eventCount;
    private final byte[] payload;
    private final int eventsToSkip;
    /** Null for a frame of one part. */
    private final int[] partEnds;

    DeliveredFrame(InboundChannelState owner, long firstSeq, int eventCount, byte[] payload, int eventsToSkip,
            int[] partEnds) {
        this.owner = owner;
        this.firstSeq = firstSeq;
        this.eventCount = eventCount;
        this.payload = payload;
        this.eventsToSkip = eventsToSkip;
        this.partEnds = partEnds;
    }

    @Override
    public ChannelId channel() {
        return owner.id();
    }

    @Override
    public long firstSeq() {
        return firstSeq;
    }

    @Override
    public int eventCount() {
        return eventCount;
    }

    @Override
    public byte[] payload() {
        return payload;
    }

    @Override
    public int eventsToSkip() {
        return eventsToSkip;
    }

    @Override
    public int parts() {
        return partEnds == null ? 1 : partEnds.length;
    }

    @Override
    public int partEnd(int part) {
        return partEnds == null ? InboundFrame.super.partEnd(part) : partEnds[part];
    }

    @Override
    public void consumed() {
        owner.consumed(lastSeq(), parts());
    }

    @Override
    public String toString() {
        return "InboundFrame{" + owner.id() + " " + firstSeq + ".." + lastSeq() + ", skip " + eventsToSkip
                + (partEnds == null ? "" : ", " + partEnds.length + " parts") + "}";
    }
}
