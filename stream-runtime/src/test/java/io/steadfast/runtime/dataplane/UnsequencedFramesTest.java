package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Frames of no events carry unsequenced content (a watermark): delivered in order right after the event they
 * follow, taking no credit and no sequence number, and never retained or resent.
 */
@Timeout(30)
class UnsequencedFramesTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("unsequenced"), 1);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults().withResyncInterval(Duration.ofMillis(100));

    private final AutoCloseableList resources = new AutoCloseableList();
    private final List<InboundFrame> received = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    private void collect(InboundFrame frame) {
        received.add(frame);
        frame.consumed();
    }

    @Test
    void deliversAFrameOfNoEventsBetweenTheEventsItFollowsAndPrecedesWithoutTakingCreditOrASequenceNumber() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG.withCreditFrames(1)));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG.withCreditFrames(1)));
        receiver.openInbound(CHANNEL, 0, this::collect);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);

        channel.send(new byte[] {1, 2, 3}, 3);
        await().until(() -> received.size() == 1 && channel.hasCredit());
        channel.send(new byte[] {9}, 0);
        assertThat(channel.nextSeq()).as("no sequence number taken").isEqualTo(4);
        assertThat(channel.hasCredit()).as("no credit taken").isTrue();
        channel.send(new byte[] {4}, 1);

        await().until(() -> received.size() == 3);
        assertThat(received).extracting(InboundFrame::firstSeq, InboundFrame::eventCount)
                .containsExactly(tuple(1L, 3), tuple(4L, 0),
                        tuple(4L, 1));
        assertThat(received.get(1).payload()).containsExactly(9);
        await().until(() -> sender.metrics().retainedFrames() == 0);
    }

    @Test
    void dropsAndCountsAFrameOfNoEventsThatDoesNotFollowTheLastDeliveredEvent() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        receiver.openInbound(CHANNEL, 0, this::collect);
        // a sender that believes events 1..4 were sent before: the receiver has none of them
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 5);

        // sent only once the sender is in sync with the receiver, so send until one arrives
        await().until(() -> {
            channel.send(new byte[] {9}, 0);
            return receiver.metrics().unsequencedFramesDropped() > 0;
        });
        assertThat(received).isEmpty();
        assertThat(sender.metrics().framesResent()).as("never resent").isZero();
    }
}
