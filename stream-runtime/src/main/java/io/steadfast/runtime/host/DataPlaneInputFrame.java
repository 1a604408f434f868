package io.steadfast.runtime.host;

import io.steadfast.runtime.dataplane.InboundFrame;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.task.InputFrame;

/** A frame received by the data plane, as a task input, stamped as it is handed to its task. */
record DataPlaneInputFrame(InboundFrame frame, long arrivedMillis, long arrivedNanos) implements InputFrame {

    DataPlaneInputFrame(InboundFrame frame) {
        this(frame, System.currentTimeMillis(), System.nanoTime());
    }

    @Override
    public ChannelId channel() {
        return frame.channel();
    }

    @Override
    public byte[] payload() {
        return frame.payload();
    }

    @Override
    public int records() {
        return frame.eventCount();
    }

    @Override
    public int skip() {
        return frame.eventsToSkip();
    }

    @Override
    public void consumed() {
        frame.consumed();
    }
}
