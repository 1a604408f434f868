package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which channels' stragglers a data plane drops quietly: those it closed within the last ten seconds. */
class RecentlyClosedChannelsTest {

    private static final TopologyId TOPOLOGY = new TopologyId("closed");
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final RecentlyClosedChannels closed = new RecentlyClosedChannels();

    @Test
    void remembersAClosedChannelForTenSecondsAndForgetsItWhenItOpensAgain() {
        ChannelId channel = new ChannelId(TOPOLOGY, 3);
        ChannelId neverOpen = new ChannelId(TOPOLOGY, 4);
        long start = 1_000 * SECOND;

        closed.closed(channel, start);

        assertThat(closed.contains(channel, start + 9 * SECOND)).isTrue();
        assertThat(closed.contains(channel, start + RecentlyClosedChannels.REMEMBERED_SECONDS * SECOND)).isFalse();
        assertThat(closed.contains(neverOpen, start)).as("never closed here: a warning").isFalse();
        closed.reopened(channel);
        assertThat(closed.contains(channel, start + SECOND)).as("open again: a message for it is not a straggler")
                .isFalse();
    }

    @Test
    void keepsTheChannelsClosedLastWhenMoreThanItsCapacityClose() {
        long now = 1_000 * SECOND;
        for (int index = 0; index <= RecentlyClosedChannels.CAPACITY; index++) {
            closed.closed(new ChannelId(TOPOLOGY, index), now);
        }

        assertThat(closed.contains(new ChannelId(TOPOLOGY, 0), now)).as("the eldest, evicted").isFalse();
        assertThat(closed.contains(new ChannelId(TOPOLOGY, 1), now)).isTrue();
        assertThat(closed.contains(new ChannelId(TOPOLOGY, RecentlyClosedChannels.CAPACITY), now)).isTrue();
    }
}
