package io.steadfast.runtime.replaylog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayLogCoverTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("t"), 0);

    private record Range(long first, long last) {
    }

    private static List<Range> cover(long after, long truncatedUpTo, Range... byFirstSeq) {
        return ReplayLogCover.after(CHANNEL, after, truncatedUpTo, List.of(byFirstSeq), Range::first, Range::last);
    }

    @Test
    void takesTheSegmentsFromTheOneHoldingTheNextRecord() {
        assertThat(cover(150, 0, new Range(101, 200), new Range(201, 300)))
                .containsExactly(new Range(101, 200), new Range(201, 300));
        assertThat(cover(0, 0, new Range(1, 1), new Range(2, 9))).hasSize(2);
        assertThat(cover(300, 0)).isEmpty();
    }

    @Test
    void skipsSegmentsThatAddNothingAndKeepsOverlappingOnesThatDo() {
        assertThat(cover(0, 0, new Range(1, 100), new Range(20, 30), new Range(51, 150), new Range(151, 160)))
                .containsExactly(new Range(1, 100), new Range(51, 150), new Range(151, 160));
    }

    @Test
    void namesTheFirstMissingRecords() {
        assertThatThrownBy(() -> cover(0, 0, new Range(1, 100), new Range(201, 300)))
                .isInstanceOfSatisfying(ReplayLogGapException.class, gap -> {
                    assertThat(gap.missingFrom()).isEqualTo(101);
                    assertThat(gap.missingTo()).isEqualTo(200);
                    assertThat(gap.getMessage()).contains("t~0", "101..200", "globally");
                });
        assertThatThrownBy(() -> cover(10, 0, new Range(21, 30)))
                .isInstanceOfSatisfying(ReplayLogGapException.class,
                        gap -> assertThat(gap.missingFrom()).isEqualTo(11));
    }

    @Test
    void recordsUpToATruncationAreMissingEvenWhenNoSegmentIsLeftToShowIt() {
        assertThatThrownBy(() -> cover(50, 100)).isInstanceOfSatisfying(ReplayLogGapException.class, gap -> {
            assertThat(gap.missingFrom()).isEqualTo(51);
            assertThat(gap.missingTo()).isEqualTo(100);
        });
        assertThat(cover(100, 100)).isEmpty();
        assertThat(cover(60, 100, new Range(51, 120))).containsExactly(new Range(51, 120));
    }
}
