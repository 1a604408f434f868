package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.recovery.CatchUpWatch;
import io.steadfast.runtime.recovery.RecoveryCatchUp;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A recovered task has caught up at the first moment it was idle with everything its live upstream tasks had sent
 * when redirected to it taken in: timed then, even when those heads reach it later.
 */
class CatchUpWatchTest {

    private static final long MS = 1_000_000;
    private final ChannelId left = ChannelId.parse("t~0@0");
    private final ChannelId right = ChannelId.parse("t~1@0");
    private final ChannelId recovered = ChannelId.parse("t~2@0");
    private final TaskMetrics metrics = new TaskMetrics();
    private final Map<ChannelId, long[]> delivered = new HashMap<>();

    private void took(ChannelId channel, long seq, long records) {
        delivered.computeIfAbsent(channel, c -> new long[1])[0] = seq;
        metrics.addRecordsIn(records);
    }

    private CatchUpWatch watch() {
        delivered.put(left, new long[] {0});
        delivered.put(right, new long[] {0});
        delivered.put(recovered, new long[] {0});
        return new CatchUpWatch(0, Set.of(left, right), metrics);
    }

    @Test
    void headsThatComeAfterTheTaskTookThemInTimeTheCatchUpWhenItDid() {
        CatchUpWatch watch = watch();
        took(left, 5, 5);
        watch.idle(10 * MS, delivered, metrics);
        took(left, 8, 3);
        took(right, 4, 4);
        watch.idle(20 * MS, delivered, metrics); // every head taken in, though not known yet
        took(left, 12, 4);
        watch.idle(30 * MS, delivered, metrics);
        watch.target(left, 8);
        assertThat(watch.caughtUp()).as("one head still unknown").isFalse();
        watch.idle(35 * MS, delivered, metrics);

        watch.target(right, 4);
        watch.idle(60 * MS, delivered, metrics);

        assertThat(watch.result()).isEqualTo(new RecoveryCatchUp(20, 12, 0));
    }

    @Test
    void headsNotTakenInYetWhenTheyComeTimeTheCatchUpWhenTheyAre() {
        CatchUpWatch watch = watch();
        took(left, 3, 3);
        watch.idle(10 * MS, delivered, metrics);
        watch.target(left, 6);
        watch.target(right, 0);
        watch.idle(15 * MS, delivered, metrics);
        assertThat(watch.caughtUp()).isFalse();

        took(left, 6, 3);
        took(recovered, 50, 50); // input from a task recovered with it needs no head
        watch.idle(40 * MS, delivered, metrics);

        assertThat(watch.result()).isEqualTo(new RecoveryCatchUp(40, 56, 0));
    }

    @Test
    void aTaskWithoutLiveUpstreamsHasCaughtUpWhenFirstIdleAfterItsReplay() {
        delivered.put(recovered, new long[] {0});
        CatchUpWatch watch = new CatchUpWatch(5 * MS, Set.of(), metrics);
        took(recovered, 7, 7);

        watch.idle(25 * MS, delivered, metrics);

        assertThat(watch.result()).isEqualTo(new RecoveryCatchUp(20, 7, 0));
    }
}
