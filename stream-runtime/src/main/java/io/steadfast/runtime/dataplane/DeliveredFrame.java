package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;

/** An {@link InboundFrame} handed to a listener; {@link #consumed()} reports back to its channel. */
final class DeliveredFrame implements InboundFrame {

    private final InboundChannelState owner;
    private final long firstSeq;
    private final int eventCount;
    private final byte[] payload;
    private final int eventsToSkip;

    DeliveredFrame(InboundChannelState owner, long firstSeq, int eventCount, byte[] payload, int eventsToSkip) {
        this.owner = owner;
        this.firstSeq = firstSeq;
        this.eventCount = eventCount;
        this.payload = payload;
        this.eventsToSkip = eventsToSkip;
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
    public void consumed() {
        owner.consumed(lastSeq());
    }

    @Override
    public String toString() {
        return "InboundFrame{" + owner.id() + " " + firstSeq + ".." + lastSeq() + ", skip " + eventsToSkip + "}";
    }
}
