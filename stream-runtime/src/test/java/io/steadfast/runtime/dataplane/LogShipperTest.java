package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.TestFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.dataplane.RecordingSink.Truncation;
import io.steadfast.runtime.dataplane.TestFrames.Content;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Batching of logged frames into segments, on a manual clock. */
class LogShipperTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("shipping"), 6);
    private static final int FRAME_PAYLOAD = 10_000;

    private final RecordingSink sink = new RecordingSink();
    private final DataPlaneMetrics metrics = new DataPlaneMetrics();
    private long nanos;
    private static final int INCARNATION = 2;

    private final LogShipper shipper = new LogShipper(CHANNEL, INCARNATION, sink,
            new LogSegmentCodec(TestFrames.CODEC), metrics, () -> nanos);
    private long nextSeq = 1;

    private RetainedFrame log() {
        RetainedFrame frame = frame(CHANNEL, nextSeq, 10, new byte[FRAME_PAYLOAD]);
        nextSeq += 10;
        shipper.logged(frame);
        return frame;
    }

    private void advanceMillis(long millis) {
        nanos += TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void handsOffABatchOnceItHoldsAQuarterMebibyte() {
        List<RetainedFrame> logged = new ArrayList<>();
        while (sink.segments().isEmpty()) {
            logged.add(log());
        }

        assertThat(logged).hasSize(LogShipper.MAX_SEGMENT_BYTES / (FRAME_PAYLOAD + 16) + 1);
        assertThat(sink.segments()).singleElement().satisfies(segment -> {
            assertThat(segment.firstSeq()).isEqualTo(1);
            assertThat(segment.lastSeq()).isEqualTo(logged.size() * 10L);
        });
        assertThat(Content.of(sink.frames())).isEqualTo(Content.of(logged));
        assertThat(metrics.logSegmentsShipped()).isEqualTo(1);
    }

    @Test
    void everySegmentCarriesTheIncarnationOfTheSenderThatLoggedIt() {
        log();
        advanceMillis(50);
        shipper.onTimer();

        assertThat(sink.segments()).singleElement().extracting(LogSegment::incarnation).isEqualTo(INCARNATION);
    }

    @Test
    void handsOffWhatWaitedFiftyMillisecondsWithTheNextFrame() {
        log();
        advanceMillis(30);
        log();
        assertThat(sink.segments()).as("after 30 ms").isEmpty();

        advanceMillis(20);
        log();

        assertThat(sink.segments()).singleElement().satisfies(segment -> {
            assertThat(segment.firstSeq()).isEqualTo(1);
            assertThat(segment.lastSeq()).isEqualTo(30);
        });
    }

    @Test
    void handsOffWhatWaitedFiftyMillisecondsOnTheTimerWhenNothingMoreIsLogged() {
        log();
        log();
        advanceMillis(49);
        shipper.onTimer();
        assertThat(sink.segments()).isEmpty();

        advanceMillis(1);
        shipper.onTimer();

        assertThat(sink.segments()).singleElement().extracting(LogSegment::lastSeq).isEqualTo(20L);
        shipper.onTimer();
        assertThat(sink.segments()).as("nothing left to hand off").hasSize(1);
    }

    @Test
    void handsOffWhatIsBatchedBeforeReportingATruncation() {
        log();
        log();

        shipper.truncated(5);

        assertThat(sink.events()).hasSize(2);
        assertThat(sink.events().get(0)).isInstanceOfSatisfying(LogSegment.class,
                segment -> assertThat(segment.lastSeq()).isEqualTo(20));
        assertThat(sink.events().get(1)).isEqualTo(new Truncation(CHANNEL, 5));
    }

    @Test
    void handsOffNothingThatWasBatchedWhenTheChannelCloses() {
        log();

        shipper.discard();
        advanceMillis(100);
        shipper.onTimer();
        log();
        advanceMillis(100);
        shipper.onTimer();

        assertThat(sink.segments()).singleElement().extracting(LogSegment::firstSeq).isEqualTo(11L);
    }

    @Test
    void keepsShippingAfterASinkThrew() {
        List<LogSegment> received = new ArrayList<>();
        OutputLogSink failingOnce = new OutputLogSink() {
            @Override
            public void logged(LogSegment segment) {
                received.add(segment);
                if (received.size() == 1) {
                    throw new IllegalStateException("queue full");
                }
            }

            @Override
            public void truncated(ChannelId channel, long upToSeq) {
            }
        };
        LogShipper shipping = new LogShipper(CHANNEL, 0, failingOnce, new LogSegmentCodec(TestFrames.CODEC), metrics,
                () -> nanos);

        shipping.logged(frame(CHANNEL, 1, 1, new byte[1]));
        shipping.truncated(0);
        shipping.logged(frame(CHANNEL, 2, 1, new byte[1]));
        shipping.truncated(0);

        assertThat(received).extracting(LogSegment::firstSeq).containsExactly(1L, 2L);
    }
}
