package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.ExactlyOnce.assertSeqsAreOneTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every task incarnation writes its number on the wire, and a receiver refuses what a superseded incarnation of its
 * sending task still sends (a "zombie" the platform took for dead), as a sender refuses the positions of a superseded
 * receiving task: two real senders of one channel, or a raw peer playing one side.
 */
@Timeout(60)
class IncarnationFencingTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("fencing"), 2);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults()
            .withResyncInterval(Duration.ofMillis(100));
    private static final byte OLD = 0;
    private static final byte NEW = 1;

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    /**
     * Hands frames to a consumer and remembers, on the IO thread, which producer sent each (the tag in its events) and
     * whether it came after the test fenced the channel.
     */
    private static final class TaggingListener implements InboundListener {

        final RecordingConsumer consumer;
        final List<Byte> tags = new ArrayList<>();
        final AtomicInteger oldAfterFence = new AtomicInteger();
        volatile boolean fenced;
        volatile long lastSeq;

        TaggingListener(RecordingConsumer consumer) {
            this.consumer = consumer;
        }

        @Override
        public void onFrame(InboundFrame frame) {
            if (frame.eventCount() > 0) {
                byte tag = TestProducer.tagOf(frame);
                synchronized (tags) {
                    tags.add(tag);
                }
                if (fenced && tag == OLD) {
                    oldAfterFence.incrementAndGet();
                }
                lastSeq = frame.lastSeq();
            }
            consumer.onFrame(frame);
        }

        List<Byte> tags() {
            synchronized (tags) {
                return List.copyOf(tags);
            }
        }
    }

    @Test
    void afterFenceInboundNothingOfTheOldIncarnationIsDeliveredAndTheAcksGoToTheNewSender() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        DataPlane oldHost = resources.add(DataPlane.start(CONFIG));
        DataPlane newHost = resources.add(DataPlane.start(CONFIG));
        TaggingListener listener = new TaggingListener(resources.add(new RecordingConsumer("fenced")));
        receiver.openInbound(CHANNEL, 0, listener, 0, 0);
        OutboundChannel old = oldHost.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_CONSUMED, 0);
        TestProducer zombie = resources.add(TestProducer.start(old, 100, "zombie", Long.MAX_VALUE, OLD));
        await().atMost(Duration.ofSeconds(20)).until(() -> listener.consumer.count() >= 5_000);

        receiver.fenceInbound(CHANNEL, 1);
        listener.fenced = true;
        long positionAtFence = listener.lastSeq;
        long fencedBefore = receiver.metrics().fencedMessagesDropped();
        await("the zombie goes on sending, and is refused").atMost(Duration.ofSeconds(10))
                .until(() -> receiver.metrics().fencedMessagesDropped() > fencedBefore);
        assertThat(zombie.isDone()).isFalse();

        // the recovered task regenerates its output from the start; the receiver keeps what it has
        long last = positionAtFence + 30_000;
        OutboundChannel recovered = newHost.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_CONSUMED,
                1);
        resources.add(TestProducer.start(recovered, 100, "recovered", last, NEW));

        await().atMost(Duration.ofSeconds(30)).until(() -> recovered.acknowledgedSeq() == last);
        assertSeqsAreOneTo(listener.consumer, last);
        assertThat(listener.oldAfterFence).as("frames of incarnation 0 delivered after the fence").hasValue(0);
        assertThat(old.acknowledgedSeq()).as("no ACK after the fence went to the old incarnation")
                .isLessThanOrEqualTo(positionAtFence);
        await("the zombie, starved of ACKs, stalls").atMost(Duration.ofSeconds(5)).until(zombie::isWaitingForCredit);
    }

    @Test
    void aSenderOfAHigherIncarnationRaisesTheMinimumByItselfAndTheOldOneIsRefusedFromThenOn() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        DataPlane oldHost = resources.add(DataPlane.start(CONFIG));
        DataPlane newHost = resources.add(DataPlane.start(CONFIG));
        TaggingListener listener = new TaggingListener(resources.add(new RecordingConsumer("taken-over")));
        receiver.openInbound(CHANNEL, 0, listener, 0, 0);
        OutboundChannel old = oldHost.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_CONSUMED, 0);
        resources.add(TestProducer.start(old, 10, "zombie", Long.MAX_VALUE, OLD));
        await().atMost(Duration.ofSeconds(20)).until(() -> listener.consumer.count() >= 5_000);

        // far enough ahead that the zombie, in frames of 10 events, is still short of it when the new one takes over
        long last = listener.lastSeq + 200_000;
        OutboundChannel recovered = newHost.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_CONSUMED,
                1);
        resources.add(TestProducer.start(recovered, 1000, "recovered", last, NEW));

        await().atMost(Duration.ofSeconds(30)).until(() -> recovered.acknowledgedSeq() == last);
        assertSeqsAreOneTo(listener.consumer, last);
        List<Byte> tags = listener.tags();
        int firstNew = tags.indexOf(NEW);
        assertThat(firstNew).as("the new incarnation delivered").isPositive();
        assertThat(tags.subList(firstNew, tags.size())).as("nothing of the old incarnation after the new one's first")
                .containsOnly(NEW);
        await().atMost(Duration.ofSeconds(5)).until(() -> receiver.metrics().fencedMessagesDropped() > 0);
        long oldAcknowledged = old.acknowledgedSeq();
        assertThat(oldAcknowledged).as("the ACKs went to the new sender").isLessThan(last);
    }

    @Test
    void aFrameOfAHigherIncarnationTakesOverAndAStaleSendersFramesAreNeitherDeliveredNorAnsweredNorStealTheAcks() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("raw-incarnations"));
        receiver.openInbound(CHANNEL, 0, consumer, 5, 1);
        RawPeer stale = resources.add(RawPeer.sender(receiver.endpoint()));
        RawPeer current = resources.add(RawPeer.sender(receiver.endpoint()));
        FrameCodec codec = stale.codec();

        stale.send(codec.encodeSync(CHANNEL, 0, 1), null);
        sendFrame(stale, 0, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.metrics().fencedMessagesDropped() == 2);

        sendFrame(current, 2, 1); // no SYNC first: the frame itself raises the minimum from 1 to 2
        WireMessage.Position answer = current.nextPosition(Duration.ofSeconds(5), MessageType.SYNC_REPLY,
                MessageType.ACK);
        assertThat(answer.type()).as("the new sender is told where the receiver stands").isEqualTo(MessageType.SYNC_REPLY);
        assertThat(answer.deliveredSeq()).isEqualTo(10);
        assertThat(answer.receiverIncarnation()).isEqualTo(5);

        sendFrame(stale, 1, 11); // incarnation 1 was taken before, and is superseded now
        stale.send(codec.encodeSync(CHANNEL, 1, 11), null);
        sendFrame(current, 2, 11);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == 20);
        assertSeqsAreOneTo(consumer, 20);
        assertThat(receiver.metrics().fencedMessagesDropped()).isEqualTo(4);
        assertThat(current.nextPosition(Duration.ofSeconds(5), MessageType.ACK)).as("the consumption is acknowledged")
                .isNotNull();
        assertThat(stale.next(Duration.ofMillis(500), MessageType.values())).as("the stale sender hears nothing")
                .isNull();
    }

    @Test
    void aSenderDropsThePositionsOfASupersededReceiverIncarnation() {
        DataPlane senderHost = resources.add(DataPlane.start(DataPlaneConfig.defaults()
                .withResyncInterval(Duration.ofSeconds(60))));
        RawPeer receiver = resources.add(RawPeer.receiver());
        OutboundChannel channel = senderHost.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_CONSUMED,
                3);
        RawPeer.Received sync = receiver.next(Duration.ofSeconds(10), MessageType.SYNC);
        assertThat(((WireMessage.Sync) sync.message()).senderIncarnation()).isEqualTo(3);
        byte[] sender = sync.from();
        FrameCodec codec = receiver.codec();
        receiver.send(sender, codec.encodePosition(MessageType.SYNC_REPLY, CHANNEL, 1, 0, 0, 32), null);
        TestProducer.sendUpTo(channel, 100, 10);
        long arrived = 0;
        while (arrived < 100) {
            arrived = ((WireMessage.Data) receiver.next(Duration.ofSeconds(10), MessageType.DATA, MessageType.BUNDLE)
                    .message()).lastSeq();
        }

        // an ACK of the receiver's previous incarnation, still on its way
        receiver.send(sender, codec.encodePosition(MessageType.ACK, CHANNEL, 0, 100, 100, 32), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> senderHost.metrics().fencedMessagesDropped() == 1);
        assertThat(channel.acknowledgedSeq()).isZero();
        assertThat(channel.retainedFrames()).isEqualTo(10);
        receiver.send(sender, codec.encodePosition(MessageType.ACK, CHANNEL, 1, 100, 50, 32), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> channel.acknowledgedSeq() == 50);

        // the receiving task is recovered in place, at the same endpoint, as incarnation 2
        senderHost.fenceOutbound(CHANNEL, 2);
        assertThat(receiver.next(Duration.ofSeconds(5), MessageType.SYNC)).as("the sender asks the new one at once")
                .isNotNull();
        receiver.send(sender, codec.encodePosition(MessageType.ACK, CHANNEL, 1, 100, 100, 32), null);
        receiver.send(sender, codec.encodePosition(MessageType.SYNC_REPLY, CHANNEL, 2, 50, 50, 32), null);
        WireMessage.Data resent = (WireMessage.Data) receiver.next(Duration.ofSeconds(10), MessageType.DATA,
                MessageType.BUNDLE).message();
        assertThat(resent.firstSeq()).as("resent from the new receiver's position").isEqualTo(51);
        assertThat(senderHost.metrics().fencedMessagesDropped()).isEqualTo(2);
        assertThat(channel.acknowledgedSeq()).as("the superseded receiver's ACK of 100 moved nothing").isEqualTo(50);
        receiver.send(sender, codec.encodePosition(MessageType.ACK, CHANNEL, 2, 100, 100, 32), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> channel.retainedFrames() == 0);
        assertThat(channel.acknowledgedSeq()).isEqualTo(100);
    }

    @Test
    void fencingNeverLowersTheMinimumAndRejectsNegativeIncarnations() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("never-lower"));
        receiver.openInbound(CHANNEL, 0, consumer, 0, 3);
        receiver.fenceInbound(CHANNEL, 1);
        RawPeer sender = resources.add(RawPeer.sender(receiver.endpoint()));
        sendFrame(sender, 2, 1);
        sendFrame(sender, 3, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == 10);
        assertThat(receiver.metrics().fencedMessagesDropped()).isEqualTo(1);

        assertThatThrownBy(() -> receiver.fenceInbound(CHANNEL, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> receiver.openInbound(CHANNEL.withEpoch(1), 0, consumer, -1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> receiver.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_CONSUMED, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static void sendFrame(RawPeer sender, int incarnation, long firstSeq) {
        byte[] payload = TestProducer.encode(firstSeq, 10);
        sender.send(sender.codec().encodeDataHeader(CHANNEL, incarnation, firstSeq, 10, payload), payload);
    }
}
