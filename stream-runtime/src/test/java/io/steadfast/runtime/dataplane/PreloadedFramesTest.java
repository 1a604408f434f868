package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.TestFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which frames of shipped segments a restored sender loads, and which segments it refuses. */
class PreloadedFramesTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("preload"), 1);
    private final LogSegmentCodec codec = new LogSegmentCodec(TestFrames.CODEC);

    /** A segment of frames of {@code eventsPerFrame} events covering firstSeq..lastSeq. */
    private LogSegment segment(long firstSeq, long lastSeq, int eventsPerFrame) {
        List<RetainedFrame> frames = new ArrayList<>();
        for (long seq = firstSeq; seq <= lastSeq; seq += eventsPerFrame) {
            int events = (int) Math.min(eventsPerFrame, lastSeq - seq + 1);
            frames.add(frame(CHANNEL, seq, events, TestProducer.encode(seq, events)));
        }
        return codec.encode(CHANNEL, 0, frames);
    }

    private static List<Long> firstSeqs(PreloadedFrames preloaded) {
        return preloaded.frames().stream().map(frame -> frame.firstSeq).toList();
    }

    @Test
    void loadsEveryFrameFromThePositionOnPassingOverThoseThatEndBeforeIt() {
        PreloadedFrames preloaded = PreloadedFrames.select(CHANNEL, 0,
                List.of(segment(1, 300, 100), segment(301, 500, 100)), 151, codec);

        assertThat(firstSeqs(preloaded)).as("the frame 101..200 holds the position").containsExactly(101L, 201L,
                301L, 401L);
        assertThat(preloaded.lastSeq()).isEqualTo(500);
    }

    @Test
    void passesOverFramesShippedTwiceWhereSegmentsOverlap() {
        // a restored sender that logged what it regenerated shipped 151..400 again, in other frame boundaries
        PreloadedFrames preloaded = PreloadedFrames.select(CHANNEL, 0,
                List.of(segment(1, 300, 100), segment(151, 400, 50), segment(401, 450, 50)), 1, codec);

        assertThat(firstSeqs(preloaded)).containsExactly(1L, 101L, 201L, 301L, 351L, 401L);
        assertThat(preloaded.lastSeq()).isEqualTo(450);
    }

    @Test
    void loadsNothingFromSegmentsThatEndBeforeThePosition() {
        PreloadedFrames preloaded = PreloadedFrames.select(CHANNEL, 0, List.of(segment(1, 300, 100)), 301, codec);

        assertThat(preloaded.frames()).isEmpty();
        assertThat(preloaded.lastSeq()).isEqualTo(300);
    }

    @Test
    void rejectsAGapBetweenSegmentsNamingTheMissingSeqs() {
        List<LogSegment> gap = List.of(segment(1, 100, 50), segment(201, 300, 50));

        assertThatThrownBy(() -> PreloadedFrames.select(CHANNEL, 0, gap, 1, codec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("channel preload~1").hasMessageContaining("seqs 101..200 are missing")
                .hasMessageContaining("segment [201, 300]");
    }

    @Test
    void rejectsSegmentsThatStartAfterThePosition() {
        assertThatThrownBy(() -> PreloadedFrames.select(CHANNEL, 0, List.of(segment(51, 100, 50)), 1, codec))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seqs 1..50 are missing");
    }

    @Test
    void rejectsASegmentOfAnotherChannel() {
        LogSegment other = codec.encode(CHANNEL.withEpoch(1), 0,
                List.of(frame(CHANNEL.withEpoch(1), 1, 1, new byte[1])));

        assertThatThrownBy(() -> PreloadedFrames.select(CHANNEL, 0, List.of(other), 1, codec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot preload segment [1, 1] of channel preload~1@1 into channel preload~1");
    }
}
