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

    /** A producer streaming to a consumer on {@code oldReceiver}, and an idle {@code newReceiver} to move to. */
    private record Redirected(DataPlane oldReceiver, DataPlane newReceiver, RecordingConsumer consumer,
                              TestProducer producer) {

        /** Ends the stream and checks the consumer got every event exactly once, across the move. */
        void finishExactlyOnce() {
            long lastSent = producer.finishNow();
            await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == lastSent);
            assertSeqsAreOneTo(consumer, lastSent);
        }
    }

    private Redirected streamUntil(DataPlaneConfig config, int eventsPerFrame, String name, long consumed) {
        DataPlane sender = resources.add(DataPlane.start(config));
        DataPlane oldReceiver = resources.add(DataPlane.start(config));
        DataPlane newReceiver = resources.add(DataPlane.start(config));
        RecordingConsumer consumer = resources.add(new RecordingConsumer(name));
        oldReceiver.openInbound(CHANNEL, 0, consumer);
        TestProducer producer = resources.add(TestProducer.start(
                sender.openOutbound(CHANNEL, oldReceiver.endpoint(), 1), eventsPerFrame, name));
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.count() >= consumed);
        return new Redirected(oldReceiver, newReceiver, consumer, producer);
    }

    @Test
    void continuesFromTheNewReceiversPositionWithoutLossOrDuplication() {
        Redirected stream = streamUntil(CONFIG, 1000, "redirect", 60_000);
        stream.oldReceiver().close();
        long lastProcessed = stream.consumer().crash();
        stream.newReceiver().openInbound(CHANNEL, lastProcessed, stream.consumer());
        stream.producer().redirect(stream.newReceiver().endpoint());

        await().atMost(Duration.ofSeconds(20)).until(() -> stream.consumer().count() >= lastProcessed + 100_000);
        stream.finishExactlyOnce();
        assertThat(stream.newReceiver().metrics().framesReceived()).isPositive();
    }

    @Test
    void redirectsWhileTheOldReceiverIsStillAliveAndOnlyTheNewOneIsFed() {
        Redirected stream = streamUntil(CONFIG, 1000, "live-redirect", 30_000);
        stream.oldReceiver().closeInbound(CHANNEL); // the task moves: the old side stops, the consumer's mail is lost
        long lastProcessed = stream.consumer().crash();
        stream.newReceiver().openInbound(CHANNEL, lastProcessed, stream.consumer());
        stream.producer().redirect(stream.newReceiver().endpoint());

        await().atMost(Duration.ofSeconds(20)).until(() -> stream.consumer().count() >= lastProcessed + 50_000);
        stream.finishExactlyOnce();
        long receivedByOldAfterwards = stream.oldReceiver().metrics().framesReceived();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> stream.oldReceiver().metrics().framesReceived() == receivedByOldAfterwards);
    }

    @Test
    void aReceiverThatOpensAfterTheRedirectAnswersTheSendersSyncAtOnce() {
        Redirected stream = streamUntil(DataPlaneConfig.defaults().withResyncInterval(Duration.ofSeconds(30)), 100,
                "early-sync", 5_000);
        stream.oldReceiver().closeInbound(CHANNEL);
        long lastProcessed = stream.consumer().crash();

        // its SYNC reaches a data plane where the channel is not open yet
        stream.producer().redirect(stream.newReceiver().endpoint());
        await().atMost(Duration.ofSeconds(10)).until(() -> stream.newReceiver().metrics().earlySyncsKept() > 0);
        assertThat(stream.newReceiver().metrics().unknownChannelFramesDropped()).as("a kept SYNC is not dropped")
                .isZero();
        stream.newReceiver().openInbound(CHANNEL, lastProcessed, stream.consumer());

        // well before the 30 s resync: the receiver answered the SYNC it had kept when the channel opened
        await().atMost(Duration.ofSeconds(5)).until(() -> stream.consumer().count() >= lastProcessed + 5_000);
        stream.finishExactlyOnce();
    }
}
