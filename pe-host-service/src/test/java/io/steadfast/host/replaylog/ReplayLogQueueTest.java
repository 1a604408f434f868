package io.steadfast.host.replaylog;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The shipper's queue alone, on the calling thread: order, batches, coalesced truncations, drops and losses. */
class ReplayLogQueueTest {

    private static final ChannelId A = new ChannelId(new TopologyId("t"), 0, 1);
    private static final ChannelId B = new ChannelId(new TopologyId("t"), 1, 1);

    private final ReplayLogQueue queue = new ReplayLogQueue(1000);

    /** Records {@code (n-1)*10+1 .. n*10} of the channel, {@code size} bytes. */
    private static ReplayLogSegment segment(ChannelId channel, int n, int size) {
        return new ReplayLogSegment(new LogSegment(channel, 0, (n - 1) * 10L + 1, n * 10L, new byte[size]), 3);
    }

    private static List<Long> firstSeqs(ReplayLogQueue.Batch batch) {
        return batch.segments().stream().map(ReplayLogSegment::firstSeq).toList();
    }

    @Test
    void takesSegmentsInOrderUpToTheBatchSizeButAtLeastOne() {
        for (int n = 1; n <= 4; n++) {
            assertThat(queue.offer(segment(A, n, 100), n)).isEqualTo(n * 100L);
        }
        queue.offer(segment(B, 1, 400), 5);

        assertThat(queue.oldestEnqueuedNanos()).isEqualTo(1);
        assertThat(firstSeqs(queue.take(250))).containsExactly(1L, 11L);
        assertThat(queue.bytes()).as("taken segments count until stored").isEqualTo(800);
        assertThat(firstSeqs(queue.take(250))).containsExactly(21L, 31L);
        ReplayLogQueue.Batch large = queue.take(250);
        assertThat(large.segments()).extracting(ReplayLogSegment::channel).containsExactly(B);
        assertThat(large.bytes()).isEqualTo(400);
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.oldestEnqueuedNanos()).isEqualTo(-1);

        queue.stored(large.segments());
        assertThat(queue.bytes()).isEqualTo(400);
    }

    @Test
    void coalescesTruncationsOfAChannelToTheHighestAndLeavesOutTheSegmentsTheyCover() {
        queue.offer(segment(A, 1, 100), 0);
        queue.offer(segment(A, 2, 100), 0);
        queue.truncate(A, 15, 0);
        queue.offer(segment(A, 3, 100), 0);
        queue.truncate(B, 5, 0);
        queue.truncate(A, 20, 0);
        queue.truncate(A, 12, 0);

        ReplayLogQueue.Batch batch = queue.take(10_000);

        assertThat(firstSeqs(batch)).as("records 1..20 are truncated before they were shipped").containsExactly(21L);
        assertThat(batch.truncations()).containsExactly(Map.entry(A, 20L), Map.entry(B, 5L));
        assertThat(queue.bytes()).as("the left-out segments are released").isEqualTo(100);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void dropsASegmentThatDoesNotFitAndMarksItsChannelIncompleteFromItsFirstRecord() {
        for (int n = 1; n <= 3; n++) {
            queue.offer(segment(A, n, 300), 0);
        }

        assertThat(queue.offer(segment(A, 4, 300), 0)).isEqualTo(-1);
        assertThat(queue.offer(segment(A, 5, 300), 0)).isEqualTo(-1);
        assertThat(queue.offer(segment(B, 1, 100), 0)).as("what still fits is queued").isEqualTo(1000);

        assertThat(queue.dropped()).isEqualTo(2);
        assertThat(queue.incompleteFrom(A)).hasValue(31);
        assertThat(queue.completeAfter(A, 0)).isFalse();
        assertThat(queue.completeAfter(A, 49)).isFalse();
        assertThat(queue.completeAfter(A, 50)).as("nothing after 50 was dropped").isTrue();
        assertThat(queue.completeAfter(B, 0)).isTrue();
        assertThat(queue.incompleteFrom(B)).isEmpty();
    }

    @Test
    void aTruncationPastDroppedRecordsMakesTheChannelCompleteAgain() {
        ReplayLogQueue small = new ReplayLogQueue(100);
        small.offer(segment(A, 1, 100), 0);
        small.offer(segment(A, 2, 100), 0);
        small.offer(segment(A, 3, 100), 0);

        small.truncate(A, 25, 0);
        assertThat(small.incompleteFrom(A)).as("records 11..25 are no longer needed").hasValue(26);
        assertThat(small.completeAfter(A, 25)).isFalse();

        small.truncate(A, 30, 0);
        assertThat(small.incompleteFrom(A)).isEmpty();
        assertThat(small.completeAfter(A, 30)).isTrue();
        assertThat(small.completeAfter(A, 29)).as("below the truncation the store no longer holds it all").isFalse();
    }

    @Test
    void segmentsTheStoreNeverTookMarkTheirChannelsIncomplete() {
        queue.offer(segment(A, 1, 100), 0);
        queue.offer(segment(B, 2, 100), 0);
        ReplayLogQueue.Batch batch = queue.take(10_000);

        queue.lost(batch.segments());

        assertThat(queue.bytes()).isZero();
        assertThat(queue.dropped()).isEqualTo(2);
        assertThat(queue.incompleteFrom(A)).hasValue(1);
        assertThat(queue.incompleteFrom(B)).isEqualTo(OptionalLong.of(11));
    }
}
