package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.ExactlyOnce.assertSeqsAreOneTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A consumer that stops consuming stops the producer; memory on both sides stays within the credit window. */
@Timeout(60)
class BackpressureTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("backpressure"), 3);
    private static final int CREDIT = 8;
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults()
            .withCreditFrames(CREDIT)
            .withResyncInterval(Duration.ofMillis(50));

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void aStalledConsumerExhaustsCreditAndResumingDeliversEverythingOnce() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("slow"));
        consumer.pause();
        receiver.openInbound(CHANNEL, 0, consumer);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);
        OutboundChannelState state = sender.outboundState(CHANNEL);
        TestProducer producer = resources.add(TestProducer.start(channel, 100, "slow", 50_000));

        await().atMost(Duration.ofSeconds(10)).until(producer::isWaitingForCredit);
        // stays blocked while the consumer does not consume, across several resync intervals (judged by the
        // channel's credit, not the producer's waiting flag, which a resync's wake-up may flip for an instant)
        try {
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(10)).until(() ->
                    !channel.hasCredit() && producer.framesSent() == CREDIT);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the producer did not stay stalled at " + CREDIT + " frames: sent "
                    + producer.framesSent() + ", credit " + channel.hasCredit() + ", retained " + state.retainedFrames()
                    + ", consumer mailbox " + consumer.mailboxSize() + "; sender " + sender.metrics() + "; receiver "
                    + receiver.metrics(), e);
        }
        assertThat(channel.hasCredit()).isFalse();
        assertThat(state.retainedFrames()).isEqualTo(CREDIT);
        assertThat(consumer.mailboxSize()).isEqualTo(CREDIT);
        assertThat(consumer.count()).isZero();

        consumer.resume();

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == 50_000);
        assertSeqsAreOneTo(consumer, 50_000);
        assertThat(state.maxRetainedFrames()).isLessThanOrEqualTo(CREDIT);
        assertThat(sender.metrics().framesSentBeyondCredit()).isZero();
        await().until(() -> state.retainedFrames() == 0 && sender.metrics().retainedBytes() == 0);
        assertThat(channel.acknowledgedSeq()).isEqualTo(50_000);
    }

    @Test
    void aSenderHandsOverOneWindowBeforeItsReceiverOpensAndItArrivesOnceWhenItDoes() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);
        OutboundChannelState state = sender.outboundState(CHANNEL);
        int handedOver = 0;
        while (channel.hasCredit()) { // the receiving task is still being created: its channel is not open
            channel.send(TestProducer.encode(channel.nextSeq(), 100), 100);
            handedOver++;
        }
        assertThat(handedOver).as("the least window a receiver grants, before any answer").isEqualTo(CREDIT);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !channel.hasCredit());
        assertThat(state.retainedFrames()).isEqualTo(CREDIT);

        RecordingConsumer consumer = resources.add(new RecordingConsumer("late"));
        receiver.openInbound(CHANNEL, 0, consumer);

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == CREDIT * 100L);
        assertSeqsAreOneTo(consumer, CREDIT * 100);
        await().until(channel::hasCredit);
        assertThat(sender.metrics().framesSentBeyondCredit()).isZero();
    }

    @Test
    void aWindowInBytesGrantsManySmallFramesAndStillBoundsThem() {
        int frameBytes = TestProducer.EVENT_BYTES; // one event per frame: what a low-rate channel flushed by linger sends
        DataPlaneConfig inBytes = CONFIG.withCreditBytes(CREDIT * 4_000);
        DataPlane sender = resources.add(DataPlane.start(inBytes));
        DataPlane receiver = resources.add(DataPlane.start(inBytes));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("small-frames"));
        consumer.pauseAfter(2_000);
        receiver.openInbound(CHANNEL, 0, consumer);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);
        OutboundChannelState state = sender.outboundState(CHANNEL);
        TestProducer producer = resources.add(TestProducer.start(channel, 1, "small-frames", 20_000));
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 2_000);

        await().atMost(Duration.ofSeconds(10)).during(Duration.ofMillis(300)).until(() -> !channel.hasCredit());

        int expectedWindow = Math.min(DataPlaneConfig.MAX_CREDIT_FRAMES, CREDIT * 4_000 / frameBytes);
        assertThat(state.retainedFrames()).as("the window the receiver granted for frames of %d bytes", frameBytes)
                .isGreaterThan(CREDIT * 10).isLessThanOrEqualTo(expectedWindow);
        consumer.resume();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == 20_000);
        assertSeqsAreOneTo(consumer, 20_000);
        assertThat(sender.metrics().framesSentBeyondCredit()).isZero();
    }

    @Test
    void sendingBeyondCreditIsAcceptedButCounted() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("eager"));
        receiver.openInbound(CHANNEL, 0, consumer);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);

        // before the receiver's first SYNC_REPLY the sender has the least window a receiver grants: CREDIT frames
        for (int frame = 0; frame < CREDIT * 3; frame++) {
            channel.send(TestProducer.encode(channel.nextSeq(), 10), 10);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == CREDIT * 3 * 10);
        assertSeqsAreOneTo(consumer, CREDIT * 3 * 10);
        assertThat(sender.metrics().framesSentBeyondCredit()).isEqualTo(CREDIT * 2);
    }

    @Test
    void rejectsOversizedFramesAndNegativeCountsAtTheSender() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG.withMaxFrameBytes(1000)));
        OutboundChannel channel = sender.openOutbound(CHANNEL, sender.endpoint(), 1);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> channel.send(new byte[1001], 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrameBytes 1000");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> channel.send(new byte[10], -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eventCount");
        assertThat(channel.nextSeq()).isEqualTo(1);
    }
}
