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

/**
 * A message damaged on the wire never moves a channel: the receiver drops and counts it, its position stays, the
 * sender is asked at once to resend, and every genuine frame is delivered exactly once, in order.
 */
@Timeout(60)
class CorruptFrameTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("corrupt"), 3);
    private static final int EVENTS_PER_FRAME = 10;

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void aFrameWithAFlippedPayloadBitIsDroppedWithoutMovingThePositionAndItsSenderIsAskedToResendAtOnce() {
        // a resync interval far beyond the test: only the answer to the damaged frame can bring a SYNC_REPLY now
        DataPlane receiver = resources.add(DataPlane.start(DataPlaneConfig.defaults()
                .withResyncInterval(Duration.ofSeconds(60))));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("corrupt"));
        receiver.openInbound(CHANNEL, 0, consumer);
        RawPeer sender = resources.add(RawPeer.sender(receiver.endpoint()));
        FrameCodec codec = sender.codec();
        sender.send(codec.encodeSync(CHANNEL, 0, 1), null);
        assertThat(sender.nextPosition(Duration.ofSeconds(10), MessageType.SYNC_REPLY).deliveredSeq()).isZero();
        for (long first = 1; first <= 30; first += EVENTS_PER_FRAME) {
            sendFrame(sender, first);
        }

        byte[] payload = TestProducer.encode(31, EVENTS_PER_FRAME);
        byte[] header = codec.encodeDataHeader(CHANNEL, 0, 31, EVENTS_PER_FRAME, payload);
        byte[] damaged = payload.clone();
        damaged[123] ^= 0x04; // an event's body: no field the data plane reads
        sender.send(header, damaged);

        WireMessage.Position answer = sender.nextPosition(Duration.ofSeconds(5), MessageType.SYNC_REPLY);
        assertThat(answer).as("the receiver asks for the resend at once, not after its resync interval").isNotNull();
        assertThat(answer.deliveredSeq()).as("the damaged frame moved no position").isEqualTo(30);
        assertThat(receiver.metrics().corruptFramesDropped()).isEqualTo(1);
        assertThat(receiver.metrics().framesReceived()).as("the damaged frame never reached its channel").isEqualTo(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == 30);

        for (long first = 31; first <= 100; first += EVENTS_PER_FRAME) {
            sendFrame(sender, first); // the damaged one resent, then the rest
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == 100);
        assertSeqsAreOneTo(consumer, 100);
        assertThat(receiver.metrics().duplicateFramesDropped()).isZero();
        assertThat(receiver.metrics().outOfOrderFramesDropped()).isZero();
        assertThat(receiver.metrics().malformedFramesDropped()).isZero();
    }

    @Test
    void aDamagedHeaderOfAFrameThatSaysMoreEventsThanItCarriesIsDroppedAsDamaged() {
        DataPlane receiver = resources.add(DataPlane.start(DataPlaneConfig.defaults()));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("corrupt-count"));
        receiver.openInbound(CHANNEL, 0, consumer);
        RawPeer sender = resources.add(RawPeer.sender(receiver.endpoint()));
        FrameCodec codec = sender.codec();
        sender.send(codec.encodeSync(CHANNEL, 0, 1), null);
        assertThat(sender.nextPosition(Duration.ofSeconds(10), MessageType.SYNC_REPLY)).isNotNull();

        byte[] payload = TestProducer.encode(1, EVENTS_PER_FRAME);
        byte[] header = codec.encodeDataHeader(CHANNEL, 0, 1, EVENTS_PER_FRAME, payload);
        // eventCount 10 -> 138 (bit 7 of its last byte), just before payloadLength and the checksum
        header[header.length - 9] ^= (byte) 0x80;
        sender.send(header, payload);

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.metrics().corruptFramesDropped() == 1);
        sendFrame(sender, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == EVENTS_PER_FRAME);
        sendFrame(sender, 11);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == 2 * EVENTS_PER_FRAME);
        assertSeqsAreOneTo(consumer, 2 * EVENTS_PER_FRAME);
        assertThat(receiver.metrics().duplicateFramesDropped()).as("events 11..138 were never taken as delivered")
                .isZero();
    }

    @Test
    void everyEventArrivesExactlyOnceInOrderThoughTheWireDamagesFramesBundlesAndAcks() {
        DataPlaneConfig config = DataPlaneConfig.defaults().withResyncInterval(Duration.ofMillis(100));
        DataPlane receiver = resources.add(DataPlane.start(config));
        DataPlane senderHost = resources.add(DataPlane.start(config));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("damaging-wire"));
        receiver.openInbound(CHANNEL, 0, consumer);
        DamagingProxy wire = resources.add(new DamagingProxy(receiver.endpoint(), 7, 11, 5, 40));
        long events = 40_000;
        resources.add(TestProducer.start(senderHost.openOutbound(CHANNEL, wire.endpoint(), 1), 100, "damaged",
                events));

        await().atMost(Duration.ofSeconds(40)).until(() -> consumer.lastSeq() == events);
        assertSeqsAreOneTo(consumer, events);
        assertThat(wire.damagedToReceiver()).isPositive();
        assertThat(wire.damagedToSender()).isPositive();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(receiver.metrics().corruptFramesDropped()).isEqualTo(wire.damagedToReceiver());
            assertThat(senderHost.metrics().corruptFramesDropped()).isEqualTo(wire.damagedToSender());
        });
        assertThat(senderHost.metrics().framesResent()).as("the damaged frames were sent again").isPositive();
        assertThat(receiver.metrics().malformedFramesDropped()).isZero();
        assertThat(senderHost.metrics().malformedFramesDropped()).isZero();
    }

    private static void sendFrame(RawPeer sender, long firstSeq) {
        byte[] payload = TestProducer.encode(firstSeq, EVENTS_PER_FRAME);
        sender.send(sender.codec().encodeDataHeader(CHANNEL, 0, firstSeq, EVENTS_PER_FRAME, payload), payload);
    }
}
