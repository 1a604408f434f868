package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.TestProducer.sendUpTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.TestFrames.Content;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sender restored on another data plane after its host died preloads the log its predecessor shipped, replays
 * it to a restored receiver at once, and drops what its producer regenerates of it, over real sockets.
 */
@Timeout(60)
class OutputLogPreloadTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("preloaded-log"), 8);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults().withResyncInterval(Duration.ofMillis(100));
    private static final long SHIPPED = 10_000;
    private static final long CHECKPOINT = 2_000;

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    /** A sender logs events 1..SHIPPED in frames of 100 to a receiver, ships them to a sink, and is lost. */
    private List<LogSegment> shipAndLoseASender(DataPlane receiver) {
        RecordingSink sink = new RecordingSink();
        DataPlane lost = DataPlane.start(CONFIG, sink);
        RecordingConsumer original = resources.add(new RecordingConsumer("original"));
        receiver.openInbound(CHANNEL, 0, original);
        sendUpTo(lost.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_TRUNCATED), SHIPPED, 100);
        await().until(() -> sink.lastSeq() == SHIPPED && original.lastSeq() == SHIPPED);
        lost.close();
        receiver.closeInbound(CHANNEL);
        return sink.segments();
    }

    @ParameterizedTest(name = "re-executed in frames of {0} events")
    @ValueSource(ints = {100, 70})
    void replaysThePreloadedLogAtOnceAndDeliversWhatIsRegeneratedExactlyOnce(int eventsPerFrame) {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        List<LogSegment> shipped = shipAndLoseASender(receiver);

        // both tasks are restored from the checkpoint after event 2,000; the sender elsewhere, spilling its log
        RecordingConsumer restoredReceiver = resources.add(new RecordingConsumer("restored"));
        receiver.openInbound(CHANNEL, CHECKPOINT, restoredReceiver);
        RecordingSink reshipped = new RecordingSink();
        DataPlane host = resources.add(DataPlane.start(CONFIG.withOutputLogMemoryBytes(64 * 1024), reshipped));
        OutboundChannel restored = host.openOutbound(CHANNEL, receiver.endpoint(), CHECKPOINT + 1,
                Retention.UNTIL_TRUNCATED);
        restored.preloadLog(shipped);

        await().until(() -> restoredReceiver.lastSeq() == SHIPPED);
        assertThat(restored.nextSeq()).as("the producer has not re-executed yet").isEqualTo(CHECKPOINT + 1);
        assertThat(host.metrics().spilledBytes()).as("the preloaded log is bounded in memory too").isPositive();

        List<Content> regenerated = sendUpTo(restored, 12_000, eventsPerFrame);
        await().until(() -> restoredReceiver.lastSeq() == 12_000 && reshipped.lastSeq() == 12_000);

        assertThat(restoredReceiver.seqs()).containsExactly(LongStream.rangeClosed(CHECKPOINT + 1, 12_000).toArray());
        assertThat(restoredReceiver.errors()).as("payload/seq mismatches").isEmpty();
        assertThat(restoredReceiver.framesWithSkip()).as("the frame that straddles the preloaded end")
                .isEqualTo(eventsPerFrame == 100 ? 0 : 1);
        List<Content> beyondPreload = regenerated.stream()
                .filter(frame -> frame.firstSeq() + frame.eventCount() - 1 > SHIPPED).toList();
        assertThat(Content.of(reshipped.frames())).as("logged and shipped again: only what reaches beyond it")
                .isEqualTo(beyondPreload);
        assertThat(host.metrics().framesSent()).as("80 preloaded frames from 2,001 on, then the new ones")
                .isEqualTo(80 + beyondPreload.size());
    }

    @Test
    void leavesTheProducersCreditWindowAsItWasWhenPreloadedFramesAreConsumed() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        List<LogSegment> shipped = shipAndLoseASender(receiver);
        RecordingConsumer restoredReceiver = resources.add(new RecordingConsumer("restored"));
        receiver.openInbound(CHANNEL, CHECKPOINT, restoredReceiver);
        DataPlane host = resources.add(DataPlane.start(CONFIG));
        OutboundChannel restored = host.openOutbound(CHANNEL, receiver.endpoint(), CHECKPOINT + 1,
                Retention.UNTIL_TRUNCATED);
        restored.preloadLog(shipped);
        await().until(() -> restored.acknowledgedSeq() == SHIPPED);
        restoredReceiver.pause();

        sendUpTo(restored, SHIPPED, 100); // regenerated, all dropped
        int sentWithCredit = 0;
        while (restored.hasCredit()) {
            long next = restored.nextSeq();
            restored.send(TestProducer.encode(next, 100), 100);
            sentWithCredit++;
        }

        assertThat(sentWithCredit).as("the receiver's window, neither widened by the 80 preloaded frames "
                + "consumed nor narrowed by the 80 regenerated ones").isEqualTo(CONFIG.creditFrames());
        restoredReceiver.resume();
        await().until(() -> restoredReceiver.lastSeq() == SHIPPED + 100L * CONFIG.creditFrames());
        assertThat(restoredReceiver.seqs()).containsExactly(
                LongStream.rangeClosed(CHECKPOINT + 1, SHIPPED + 100L * CONFIG.creditFrames()).toArray());
    }

    @Test
    void rejectsSegmentsThatLeaveAGapAfterTheChannelsPosition() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        List<LogSegment> shipped = shipAndLoseASender(receiver);
        DataPlane host = resources.add(DataPlane.start(CONFIG));
        OutboundChannel restored = host.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_TRUNCATED);
        List<LogSegment> withoutTheFirst = shipped.subList(1, shipped.size());

        assertThatThrownBy(() -> restored.preloadLog(withoutTheFirst)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seqs 1.." + shipped.get(0).lastSeq() + " are missing");
        assertThat(restored.retainedFrames()).isZero();
    }

    @Test
    void refusesToPreloadAfterTheFirstSendOrWithoutAnOutputLog() {
        DataPlane host = resources.add(DataPlane.start(CONFIG));
        OutboundChannel sending = host.openOutbound(CHANNEL, host.endpoint(), 1, Retention.UNTIL_TRUNCATED);
        OutboundChannel plain = host.openOutbound(CHANNEL.withEpoch(1), host.endpoint(), 1);
        sending.send(TestProducer.encode(1, 1), 1);

        assertThatThrownBy(() -> sending.preloadLog(List.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before the first send");
        assertThatThrownBy(() -> plain.preloadLog(List.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Retention.UNTIL_TRUNCATED");
    }
}
