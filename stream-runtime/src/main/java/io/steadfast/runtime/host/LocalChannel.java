package io.steadfast.runtime.host;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.task.FrameSender;
import io.steadfast.runtime.task.InputFrame;
import io.steadfast.runtime.task.StreamTask;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A channel between two tasks of the same host: frames go straight into the receiving task's mailbox, with
 * the same credit window as a data-plane channel (so backpressure behaves the same), but without a socket, an
 * IO-thread hop or a copy. There is no network to lose frames, so no sequence protocol is needed.
 */
final class LocalChannel implements FrameSender {

    private final ChannelId id;
    private final int creditFrames;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile StreamTask receiver;
    private volatile Runnable wakeUp = () -> { };

    LocalChannel(ChannelId id, int creditFrames) {
        this.id = id;
        this.creditFrames = creditFrames;
    }

    /** Connects the receiving task; must happen before the sending task starts. */
    void connect(StreamTask task) {
        this.receiver = Objects.requireNonNull(task);
    }

    @Override
    public ChannelId channel() {
        return id;
    }

    @Override
    public void send(byte[] payload, int records) {
        StreamTask target = receiver;
        if (target == null) {
            throw new IllegalStateException("local channel " + id + " has no receiving task");
        }
        inFlight.incrementAndGet();
        target.deliver(new Frame(payload, records));
    }

    @Override
    public boolean hasCredit() {
        return inFlight.get() < creditFrames;
    }

    @Override
    public void onCreditAvailable(Runnable callback) {
        this.wakeUp = Objects.requireNonNull(callback);
    }

    private void release() {
        if (inFlight.getAndDecrement() == creditFrames) {
            wakeUp.run();
        }
    }

    private final class Frame implements InputFrame {

        private final byte[] payload;
        private final int records;
        private final long arrivedMillis = System.currentTimeMillis();
        private final long arrivedNanos = System.nanoTime();

        Frame(byte[] payload, int records) {
            this.payload = payload;
            this.records = records;
        }

        @Override
        public long arrivedMillis() {
            return arrivedMillis;
        }

        @Override
        public long arrivedNanos() {
            return arrivedNanos;
        }

        @Override
        public ChannelId channel() {
            return id;
        }

        @Override
        public byte[] payload() {
            return payload;
        }

        @Override
        public int records() {
            return records;
        }

        @Override
        public int skip() {
            return 0;
        }

        @Override
        public void consumed() {
            release();
        }
    }
}
