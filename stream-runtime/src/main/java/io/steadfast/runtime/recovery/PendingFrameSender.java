package io.steadfast.runtime.recovery;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.task.FrameSender;
import java.util.Objects;

/**
 * An output channel of a task prepared ahead of its recovery ({@link InPlaceRecovery#prepare}), not open yet: the
 * recovery opens the data-plane channel and {@link #connect connects} this sender to it before the task starts (the
 * task's thread, started after, sees it). The task registers its credit listener while it is made; it is passed on.
 */
final class PendingFrameSender implements FrameSender {

    private final ChannelId channel;
    private FrameSender target;
    private Runnable creditListener;

    PendingFrameSender(ChannelId channel) {
        this.channel = Objects.requireNonNull(channel, "channel");
    }

    /** Sends through {@code opened} from now on; once, before the task starts. */
    void connect(FrameSender opened) {
        if (target != null) {
            throw new IllegalStateException("channel " + channel + " of a prepared task is connected already");
        }
        target = Objects.requireNonNull(opened, "opened");
        if (creditListener != null) {
            target.onCreditAvailable(creditListener);
        }
    }

    @Override
    public ChannelId channel() {
        return channel;
    }

    @Override
    public void send(byte[] payload, int records) {
        connected().send(payload, records);
    }

    @Override
    public boolean hasCredit() {
        return target != null && target.hasCredit();
    }

    @Override
    public void onCreditAvailable(Runnable wakeUp) {
        creditListener = Objects.requireNonNull(wakeUp, "wakeUp");
        if (target != null) {
            target.onCreditAvailable(wakeUp);
        }
    }

    @Override
    public void truncateLog(long upToSeq) {
        if (target != null) {
            target.truncateLog(upToSeq);
        }
    }

    private FrameSender connected() {
        if (target == null) {
            throw new IllegalStateException("channel " + channel + " of a task prepared ahead of its recovery is not"
                    + " open yet; the recovery connects it before the task starts");
        }
        return target;
    }
}
