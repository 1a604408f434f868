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

/** A receiver that moves to another data plane gets the stream from its consumer's position on. */
@Timeout(60)
class RedirectTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("redirect"), 5);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults()
            .withResyncInterval(Duration.ofMillis(100));

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void continuesFromTheNewReceiversPositionWithoutLossOrDuplication() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane oldReceiver = DataPlane.start(CONFIG);
        DataPlane newReceiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("redirect"));
        oldReceiver.openInbound(CHANNEL, 0, consumer);
        TestProducer producer = resources.add(
                TestProducer.start(sender.openOutbound(CHANNEL, oldReceiver.endpoint(), 1), 1000, "redirect"));

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 60_000);
        oldReceiver.close();
        long lastProcessed = consumer.crash();
        newReceiver.openInbound(CHANNEL, lastProcessed, consumer);
        producer.redirect(newReceiver.endpoint());

        long target = lastProcessed + 100_000;
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= target);
        long lastSent = producer.finishNow();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == lastSent);
        assertSeqsAreOneTo(consumer, lastSent);
        assertThat(newReceiver.metrics().framesReceived()).isPositive();
    }

    @Test
    void redirectsWhileTheOldReceiverIsStillAliveAndOnlyTheNewOneIsFed() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane oldReceiver = resources.add(DataPlane.start(CONFIG));
        DataPlane newReceiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("live-redirect"));
        oldReceiver.openInbound(CHANNEL, 0, consumer);
        TestProducer producer = resources.add(
                TestProducer.start(sender.openOutbound(CHANNEL, oldReceiver.endpoint(), 1), 1000, "live-redirect"));

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 30_000);
        oldReceiver.closeInbound(CHANNEL); // the task moves: the old side stops, the consumer's mail is lost
        long lastProcessed = consumer.crash();
        newReceiver.openInbound(CHANNEL, lastProcessed, consumer);
        producer.redirect(newReceiver.endpoint());

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= lastProcessed + 50_000);
        long lastSent = producer.finishNow();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == lastSent);
        assertSeqsAreOneTo(consumer, lastSent);
        long receivedByOldAfterwards = oldReceiver.metrics().framesReceived();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> oldReceiver.metrics().framesReceived() == receivedByOldAfterwards);
    }

    @Test
    void aReceiverThatOpensAfterTheRedirectAnswersTheSendersSyncAtOnce() {
        DataPlaneConfig slowResync = DataPlaneConfig.defaults().withResyncInterval(Duration.ofSeconds(30));
        DataPlane sender = resources.add(DataPlane.start(slowResync));
        DataPlane oldReceiver = resources.add(DataPlane.start(slowResync));
        DataPlane newReceiver = resources.add(DataPlane.start(slowResync));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("early-sync"));
        oldReceiver.openInbound(CHANNEL, 0, consumer);
        TestProducer producer = resources.add(
                TestProducer.start(sender.openOutbound(CHANNEL, oldReceiver.endpoint(), 1), 100, "early-sync"));
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= 5_000);
        oldReceiver.closeInbound(CHANNEL);
        long lastProcessed = consumer.crash();

        producer.redirect(newReceiver.endpoint()); // its SYNC reaches a data plane where the channel is not open yet
        await().atMost(Duration.ofSeconds(10)).until(() -> newReceiver.metrics().unknownChannelFramesDropped() > 0);
        newReceiver.openInbound(CHANNEL, lastProcessed, consumer);

        // well before the 30 s resync: the receiver answered the SYNC it had kept when the channel opened
        await().atMost(Duration.ofSeconds(5)).until(() -> consumer.count() >= lastProcessed + 5_000);
        long lastSent = producer.finishNow();
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == lastSent);
        assertSeqsAreOneTo(consumer, lastSent);
    }
}
