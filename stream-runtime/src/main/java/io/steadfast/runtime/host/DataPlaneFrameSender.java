package io.steadfast.runtime.host;

import io.steadfast.runtime.dataplane.OutboundChannel;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.task.FrameSender;

/** A task's output channel over a data-plane outbound channel. */
record DataPlaneFrameSender(OutboundChannel outbound) implements FrameSender {

    @Override
    public ChannelId channel() {
        return outbound.id();
    }

    @Override
    public void send(byte[] payload, int records) {
        outbound.send(payload, records);
    }

    @Override
    public boolean hasCredit() {
        return outbound.hasCredit();
    }

    @Override
    public void onCreditAvailable(Runnable wakeUp) {
        outbound.onCreditAvailable(wakeUp);
    }

    @Override
    public void truncateLog(long upToSeq) {
        outbound.truncateLog(upToSeq);
    }
}
