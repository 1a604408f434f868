package io.steadfast.runtime.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.task.FrameSender;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The output channel of a task prepared ahead: closed until the recovery connects it, then the opened channel. */
class PendingFrameSenderTest {

    private static final ChannelId CHANNEL = new ChannelId(TopologyId.of("t"), 3, 1);

    /** Records what reaches it, as an opened data-plane channel would take it. */
    private static final class Opened implements FrameSender {
        final List<Integer> sent = new ArrayList<>();
        final List<Long> truncated = new ArrayList<>();
        Runnable creditListener;

        @Override
        public ChannelId channel() {
            return CHANNEL;
        }

        @Override
        public void send(byte[] payload, int records) {
            sent.add(records);
        }

        @Override
        public boolean hasCredit() {
            return true;
        }

        @Override
        public void onCreditAvailable(Runnable wakeUp) {
            creditListener = wakeUp;
        }

        @Override
        public void truncateLog(long upToSeq) {
            truncated.add(upToSeq);
        }
    }

    @Test
    void refusesToSendAndHasNoCreditUntilConnected() {
        PendingFrameSender pending = new PendingFrameSender(CHANNEL);

        assertThat(pending.channel()).isEqualTo(CHANNEL);
        assertThat(pending.hasCredit()).isFalse();
        assertThatThrownBy(() -> pending.send(new byte[1], 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not open yet");
        pending.truncateLog(5); // nothing logged yet: nothing to truncate
    }

    @Test
    void passesTheTasksCreditListenerOnAndForwardsEverythingOnceConnected() {
        PendingFrameSender pending = new PendingFrameSender(CHANNEL);
        Runnable wakeUp = () -> { };
        pending.onCreditAvailable(wakeUp); // the task registers it while it is made
        Opened opened = new Opened();

        pending.connect(opened);
        pending.send(new byte[4], 2);
        pending.truncateLog(7);

        assertThat(opened.creditListener).isSameAs(wakeUp);
        assertThat(pending.hasCredit()).isTrue();
        assertThat(opened.sent).containsExactly(2);
        assertThat(opened.truncated).containsExactly(7L);
        assertThatThrownBy(() -> pending.connect(new Opened())).isInstanceOf(IllegalStateException.class);
    }
}
