package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.TestProducer.sendUpTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.RecordingSink.Truncation;
import io.steadfast.runtime.dataplane.TestFrames.Content;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What output logs record reaches the data plane's {@link OutputLogSink}, over real sockets. */
@Timeout(60)
class OutputLogShippingTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("shipped-log"), 2);
    private static final ChannelId PLAIN = new ChannelId(new TopologyId("shipped-log"), 3);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults().withResyncInterval(Duration.ofMillis(100));

    private final AutoCloseableList resources = new AutoCloseableList();
    private final RecordingSink sink = new RecordingSink();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    /** A sender shipping to {@link #sink} and a receiving data plane with a consumer on {@code channel}. */
    private OutboundChannel open(DataPlane sender, DataPlane receiver, ChannelId channel, Retention retention) {
        receiver.openInbound(channel, 0, resources.add(new RecordingConsumer(channel.toString())));
        return sender.openOutbound(channel, receiver.endpoint(), 1, retention);
    }

    @Test
    void shipsEveryLoggedFrameOnceInContiguousBatchedSegments() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG, sink));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        OutboundChannel channel = open(sender, receiver, CHANNEL, Retention.UNTIL_TRUNCATED);
        Random random = new Random(5);

        // frames of 1..40 events, and every fifth a frame of no events, which is not logged
        List<Content> sent = sendUpTo(channel, 20_000, () -> random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(40));
        await().until(() -> sink.lastSeq() == 20_000);

        assertThat(Content.of(sink.frames())).as("decoded frames of all segments").isEqualTo(sent);
        List<LogSegment> segments = sink.segments();
        assertThat(segments.get(0).firstSeq()).isEqualTo(1);
        for (int i = 1; i < segments.size(); i++) {
            assertThat(segments.get(i).firstSeq()).as("segment %d follows the one before", i)
                    .isEqualTo(segments.get(i - 1).lastSeq() + 1);
        }
        assertThat(segments).as("batches, not a segment per frame").hasSizeLessThan(sent.size() / 10);
        assertThat(segments).allSatisfy(segment -> assertThat(segment.channel()).isEqualTo(CHANNEL));
        assertThat(sender.metrics().logSegmentsShipped()).isEqualTo(segments.size());
    }

    @Test
    void reportsATruncationAfterEverySegmentLoggedBeforeIt() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG, sink));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        OutboundChannel channel = open(sender, receiver, CHANNEL, Retention.UNTIL_TRUNCATED);

        sendUpTo(channel, 5_000, 100);
        channel.truncateLog(2_000);
        await().until(() -> sink.events().contains(new Truncation(CHANNEL, 2_000)));

        List<Object> events = sink.events();
        assertThat(events.get(events.size() - 1)).isEqualTo(new Truncation(CHANNEL, 2_000));
        assertThat(events.get(events.size() - 2)).isInstanceOfSatisfying(LogSegment.class,
                segment -> assertThat(segment.lastSeq()).isEqualTo(5_000));
    }

    @Test
    void shipsNothingOfChannelsRetainedOnlyUntilConsumed() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG, sink));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        OutboundChannel plain = open(sender, receiver, PLAIN, Retention.UNTIL_CONSUMED);
        OutboundChannel logged = open(sender, receiver, CHANNEL, Retention.UNTIL_TRUNCATED);

        sendUpTo(plain, 2_000, 100);
        sendUpTo(logged, 2_000, 100);
        // the plain channel's frames were handed to the IO thread first, so they would have been shipped first
        await().until(() -> sink.lastSeq() == 2_000 && plain.acknowledgedSeq() == 2_000);

        assertThat(sink.segments()).extracting(LogSegment::channel).containsOnly(CHANNEL);
    }
}
