package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The output log of local recovery: with {@link Retention#UNTIL_TRUNCATED} a sender keeps consumed frames until a
 * truncation, and replays them to a receiver restored at an older position on another data plane.
 */
@Timeout(60)
class OutputLogTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("output-log"), 3);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults().withResyncInterval(Duration.ofMillis(100));
    private static final int EVENTS_PER_FRAME = 100;

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    private static void sendUpTo(OutboundChannel channel, long last) {
        TestProducer.sendUpTo(channel, last, EVENTS_PER_FRAME);
    }

    private static long[] range(long first, long last) {
        return LongStream.rangeClosed(first, last).toArray();
    }

    /**
     * A logging sender, its receiver on a first data plane, and a second data plane where the receiving task is
     * restored.
     */
    private record LoggedChannel(DataPlane sender, DataPlane first, DataPlane second, RecordingConsumer original,
                                 OutboundChannel channel) {
    }

    private LoggedChannel loggedChannel() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane first = resources.add(DataPlane.start(CONFIG));
        DataPlane second = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer original = resources.add(new RecordingConsumer("original"));
        first.openInbound(CHANNEL, 0, original);
        return new LoggedChannel(sender, first, second, original,
                sender.openOutbound(CHANNEL, first.endpoint(), 1, Retention.UNTIL_TRUNCATED));
    }

    /** The receiving task is lost and restored on the second data plane at {@code position}; the sender redirected. */
    private RecordingConsumer restoreOnSecond(LoggedChannel logged, long position) {
        logged.first().closeInbound(CHANNEL);
        RecordingConsumer restored = resources.add(new RecordingConsumer("restored"));
        logged.second().openInbound(CHANNEL, position, restored);
        logged.channel().redirect(logged.second().endpoint());
        return restored;
    }

    @Test
    void replaysFromTheLogToAReceiverRestoredAtAnOlderPositionOnAnotherDataPlane() {
        LoggedChannel logged = loggedChannel();
        DataPlane sender = logged.sender();
        RecordingConsumer original = logged.original();
        OutboundChannel channel = logged.channel();

        sendUpTo(channel, 20_000);
        await().until(() -> original.lastSeq() == 20_000 && channel.acknowledgedSeq() == 20_000);
        assertThat(channel.retainedFrames()).as("consumed, but kept for a replay").isEqualTo(200);

        channel.truncateLog(5_000); // a checkpoint covering events up to 5,000 completed
        await().until(() -> channel.retainedFrames() == 150);

        // the receiving task is lost and restored elsewhere from a snapshot taken after event 8,000
        RecordingConsumer restored = restoreOnSecond(logged, 8_000);

        await().until(() -> restored.lastSeq() == 20_000);
        sendUpTo(channel, 21_000);
        await().until(() -> restored.lastSeq() == 21_000);
        assertThat(restored.seqs()).containsExactly(range(8_001, 21_000));
        assertThat(restored.errors()).isEmpty();
        assertThat(restored.framesWithSkip()).as("8,000 is a frame boundary").isZero();
        assertThat(sender.metrics().framesResent()).as("frames 81..200 again").isGreaterThanOrEqualTo(120);
    }

    @Test
    void replaysNoFasterThanTheRestoredReceiversCreditAllows() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane first = resources.add(DataPlane.start(CONFIG));
        DataPlane second = resources.add(DataPlane.start(CONFIG.withCreditFrames(4)));
        RecordingConsumer original = resources.add(new RecordingConsumer("original"));
        first.openInbound(CHANNEL, 0, original);
        OutboundChannel channel = sender.openOutbound(CHANNEL, first.endpoint(), 1, Retention.UNTIL_TRUNCATED);
        sendUpTo(channel, 10_000);
        await().until(() -> original.lastSeq() == 10_000);

        first.closeInbound(CHANNEL);
        RecordingConsumer slow = resources.add(new RecordingConsumer("slow"));
        slow.pause();
        second.openInbound(CHANNEL, 50, slow); // restored in the middle of the first frame
        channel.redirect(second.endpoint());

        await().until(() -> slow.mailboxSize() == 4);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> slow.mailboxSize() == 4);
        assertThat(second.metrics().framesReceived() - second.metrics().duplicateFramesDropped())
                .as("frames delivered while nothing was consumed").isEqualTo(4);
        assertThat(slow.mailboxDeliveries()).as("in bundles of a quarter of the window, at least 2").isEqualTo(2);

        slow.resume();
        await().until(() -> slow.lastSeq() == 10_000);
        assertThat(slow.seqs()).containsExactly(range(51, 10_000));
        assertThat(slow.framesWithSkip()).isEqualTo(1);
    }

    @Test
    void replaysALogOfSmallFramesInBundlesThatCountAsTheirFramesForCredit() {
        LoggedChannel logged = loggedChannel();
        OutboundChannel channel = logged.channel();
        // a low-rate channel: frames of 3 events, each delivered before the next is sent
        for (long next = 1; next <= 900; next += 3) {
            channel.send(TestProducer.encode(next, 3), 3);
            long last = next + 2;
            await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).until(() -> logged.original().lastSeq() >= last);
        }
        assertThat(logged.sender().metrics().bundlesSent()).as("nothing to bundle while the receiver kept up").isZero();

        RecordingConsumer restored = restoreOnSecond(logged, 100); // in the middle of frame 34 (events 100..102)
        await().until(() -> restored.lastSeq() == 900);
        sendUpTo(channel, 1_200);
        await().until(() -> restored.lastSeq() == 1_200 && channel.acknowledgedSeq() == 1_200);

        assertThat(restored.seqs()).containsExactly(range(101, 1_200));
        assertThat(restored.errors()).isEmpty();
        assertThat(restored.framesWithSkip()).isEqualTo(1);
        assertThat(logged.sender().metrics().framesResent()).as("frames 34..300 again").isGreaterThanOrEqualTo(267);
        assertThat(logged.sender().metrics().bundlesSent()).isPositive();
        assertThat(restored.deliveriesProcessed()).as("267 frames replayed in bundles of up to 8 (window 32)")
                .isLessThan(267 / 4);
        assertThat(logged.second().metrics().framesReceived()).as("a bundle's frames each")
                .isGreaterThanOrEqualTo(267);
    }

    @Test
    void neverDropsFramesTheReceiverHasNotConsumedEvenWhenTruncatedPastThem() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("paused"));
        consumer.pause();
        receiver.openInbound(CHANNEL, 0, consumer);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_TRUNCATED);
        for (long next = 1; next <= 500; next += EVENTS_PER_FRAME) {
            channel.send(TestProducer.encode(next, EVENTS_PER_FRAME), EVENTS_PER_FRAME);
        }
        await().until(() -> consumer.mailboxSize() == 5);

        channel.truncateLog(1_000);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> channel.retainedFrames() == 5);

        consumer.resume();
        await().until(() -> channel.retainedFrames() == 0);
        assertThat(consumer.seqs()).containsExactly(range(1, 500));
    }

    @Test
    void keepsNothingConsumedWhenRetainingOnlyUntilConsumed() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("plain"));
        receiver.openInbound(CHANNEL, 0, consumer);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);

        sendUpTo(channel, 5_000);

        await().until(() -> consumer.lastSeq() == 5_000 && channel.retainedFrames() == 0);
        assertThat(channel.retainedBytes()).isZero();
    }
}
