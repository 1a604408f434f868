package io.steadfast.host.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.TaskId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What a host keeps of the snapshots it fetched ahead, fetching on the calling thread: each once, for a while, a
 * bounded number, taken out whole or not at all; a fetch that failed leaves the recovery to fetch them itself. (A
 * recovery taking snapshots fetched ahead is in {@code LocalRecoveryApiTest}.)
 */
class SnapshotPrefetchesTest {

    private static final TaskId A = TaskId.parse("t/count#0");
    private static final TaskId B = TaskId.parse("t/count#1");
    private static final TaskId C = TaskId.parse("t/sink#0");

    private final AtomicLong now = new AtomicLong();
    /** Holds no snapshot: every fetch fails as a missing snapshot does. */
    private final InMemorySnapshotStore store = new InMemorySnapshotStore();
    private final SnapshotPrefetches prefetches = new SnapshotPrefetches(new SnapshotRestorer(store), Runnable::run,
            now::get);

    @Test
    void fetchesEachSnapshotOnceWhileItIsKept() {
        assertThat(prefetches.prefetch(List.of(A, B), 4)).isEqualTo(2);
        assertThat(prefetches.prefetch(List.of(B, C), 4)).as("only what is not kept already").isEqualTo(1);
        assertThat(prefetches.prefetch(List.of(A), 5)).as("another checkpoint").isEqualTo(1);
        assertThat(prefetches.size()).isEqualTo(4);
    }

    @Test
    void saysWhenEveryOneIsFetchedOnlyForTasksBeingFetchedAheadAndAFailedFetchFailsIt() {
        prefetches.prefetch(List.of(A, B), 4);

        assertThat(prefetches.whenFetched(List.of(A, C), 4)).as("C is not fetched ahead").isEmpty();
        assertThat(prefetches.whenFetched(List.of(A), 5)).as("not in that checkpoint").isEmpty();
        assertThat(prefetches.whenFetched(List.of(A, B), 4)).hasValueSatisfying(fetched ->
                assertThat(fetched).as("the store holds none of them").isCompletedExceptionally());
        assertThat(prefetches.size()).as("nothing taken out").isEqualTo(2);
    }

    @Test
    void forgetsWhatNoRecoveryTookInTime() {
        prefetches.prefetch(List.of(A, B), 4);
        now.addAndGet(SnapshotPrefetches.KEPT_FOR.toNanos());
        prefetches.prefetch(List.of(C), 4);
        assertThat(prefetches.size()).isEqualTo(3);

        now.addAndGet(Duration.ofMillis(1).toNanos());

        assertThat(prefetches.size()).as("A and B are older than " + SnapshotPrefetches.KEPT_FOR).isEqualTo(1);
        assertThat(prefetches.prefetch(List.of(A), 4)).as("fetched afresh").isEqualTo(1);
    }

    @Test
    void keepsABoundedNumberDroppingTheOldestFirst() {
        List<TaskId> many = IntStream.range(0, SnapshotPrefetches.MAX_KEPT + 10)
                .mapToObj(i -> TaskId.parse("t/count#" + i)).toList();

        prefetches.prefetch(many, 4);

        assertThat(prefetches.size()).isEqualTo(SnapshotPrefetches.MAX_KEPT);
        assertThat(prefetches.prefetch(many.subList(0, 10), 4)).as("the oldest were dropped").isEqualTo(10);
    }

    @Test
    void aFailedFetchOrOneThatDoesNotCoverEveryTaskLeavesTheRecoveryToFetchThemAndIsTakenOut() {
        prefetches.prefetch(List.of(A, B), 4);

        assertThat(prefetches.fetched(List.of(A), 4)).as("the store holds no snapshot of A").isFalse();
        assertThat(prefetches.take(List.of(A, B), 4)).isEmpty();
        assertThat(prefetches.size()).as("taken out all the same").isZero();

        prefetches.prefetch(List.of(A), 4);
        assertThat(prefetches.take(List.of(A, C), 4)).as("C was not fetched ahead").isEmpty();
        assertThat(prefetches.size()).isZero();
    }
}
