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

/** Exactly-once, in-order delivery over real sockets while data planes are killed and restarted. */
@Timeout(60)
class ReliableChannelTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("reliable"), 1);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults()
            .withResyncInterval(Duration.ofMillis(100));

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void deliversEveryEventExactlyOnceInOrder() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("basic"));
        receiver.openInbound(CHANNEL, 0, consumer);

        resources.add(TestProducer.start(sender.openOutbound(CHANNEL, receiver.endpoint(), 1), 1000, "basic", 200_000));

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 200_000);
        assertSeqsAreOneTo(consumer, 200_000);
        await().until(() -> sender.metrics().retainedFrames() == 0);
        assertThat(sender.metrics().framesSentBeyondCredit()).isZero();
    }

    @Test
    void survivesTheReceivingDataPlaneBeingKilledAndRestartedOnTheSamePortTwice() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = DataPlane.start(CONFIG);
        String receiverEndpoint = receiver.endpoint();
        RecordingConsumer consumer = resources.add(new RecordingConsumer("restarts"));
        receiver.openInbound(CHANNEL, 0, consumer);
        TestProducer producer = resources.add(
                TestProducer.start(sender.openOutbound(CHANNEL, receiverEndpoint, 1), 1000, "restarts"));

        for (int restart = 1; restart <= 2; restart++) {
            long target = restart * 80_000L;
            await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= target);
            assertThat(producer.isDone()).as("producer still streaming while we kill").isFalse();
            // hold the consumer so that delivered but unprocessed frames exist at the kill: they must be resent
            consumer.pause();
            await().atMost(Duration.ofSeconds(20)).until(() -> consumer.mailboxSize() > 0);

            receiver.close(); // frames in flight and in the kernel are lost
            long lastProcessed = consumer.crash(); // and so is the consumer's unprocessed mail
            receiver = DataPlane.start(CONFIG.withBindAddress(receiverEndpoint));
            receiver.openInbound(CHANNEL, lastProcessed, consumer);
            consumer.resume();
        }
        DataPlane lastReceiver = resources.add(receiver);

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 200_000);
        long lastSent = producer.finishNow();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == lastSent);
        assertSeqsAreOneTo(consumer, lastSent);
        assertThat(producer.failure()).isNull();
        assertThat(lastReceiver.endpoint()).isEqualTo(receiverEndpoint);
        // recovery really happened: lost frames were resent after the receiver stated its position
        assertThat(sender.metrics().framesResent()).isPositive();
        System.out.printf("receiver restarts: %d events, sender %s%n", lastSent, sender.metrics());
    }

    @Test
    void survivesTheReceivingDataPlaneReopenedQuicklyWhileItsConsumerKeepsItsMail() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = DataPlane.start(CONFIG);
        String receiverEndpoint = receiver.endpoint();
        RecordingConsumer consumer = resources.add(new RecordingConsumer("reconnect"));
        receiver.openInbound(CHANNEL, 0, consumer);
        TestProducer producer = resources.add(
                TestProducer.start(sender.openOutbound(CHANNEL, receiverEndpoint, 1), 500, "reconnect"));

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 50_000);
        receiver.close(); // the sender's connection drops; the consumer still works off its mailbox
        await().until(() -> consumer.mailboxSize() == 0);
        receiver = resources.add(DataPlane.start(CONFIG.withBindAddress(receiverEndpoint)));
        receiver.openInbound(CHANNEL, consumer.lastSeq(), consumer);

        long target = consumer.count() + 100_000L;
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= target);
        long lastSent = producer.finishNow();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == lastSent);
        assertSeqsAreOneTo(consumer, lastSent);
    }

    @Test
    void aRestartedSenderReplayingFromAnEarlierPositionIsDedupedIncludingPartialFrames() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("sender-restart"));
        receiver.openInbound(CHANNEL, 0, consumer);

        DataPlane firstSender = DataPlane.start(CONFIG);
        TestProducer firstProducer = TestProducer.start(
                firstSender.openOutbound(CHANNEL, receiver.endpoint(), 1), 1000, "first");
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 60_000);
        long lastSentByFirst = firstProducer.finishNow();
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == lastSentByFirst);
        firstSender.close();

        // the upstream replays from an older position (e.g. its last checkpoint), with other frame boundaries:
        // 12,346 events up to the delivered position is not a multiple of 700, so one frame overlaps partially
        long replayFrom = lastSentByFirst - 12_345;
        DataPlane secondSender = resources.add(DataPlane.start(CONFIG));
        long end = lastSentByFirst + 50_000;
        resources.add(TestProducer.start(secondSender.openOutbound(CHANNEL, receiver.endpoint(), replayFrom), 700,
                "second", end));

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == end);
        assertSeqsAreOneTo(consumer, end);
        assertThat(consumer.framesWithSkip()).isEqualTo(1);
    }
}
