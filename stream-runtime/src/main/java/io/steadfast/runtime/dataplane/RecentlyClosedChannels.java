package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The channels a data plane closed lately, so that the messages still on their way to them (an ACK for a frame sent
 * just before its sender was cancelled, a resend to a receiver being closed) are dropped quietly: they are the
 * ordinary stragglers of a cancel, not a misrouted message worth a warning. Remembers the {@value #CAPACITY} closed
 * last, each for {@value #REMEMBERED_SECONDS} s. IO thread only.
 */
final class RecentlyClosedChannels {

    static final int CAPACITY = 4096;
    static final long REMEMBERED_SECONDS = 10;
    private static final long REMEMBERED_NANOS = TimeUnit.SECONDS.toNanos(REMEMBERED_SECONDS);

    private final Map<ChannelId, Long> closedAt = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ChannelId, Long> eldest) {
            return size() > CAPACITY;
        }
    };

    void closed(ChannelId channel, long nowNanos) {
        closedAt.remove(channel); // re-inserted: the order is that of the latest close
        closedAt.put(channel, nowNanos);
    }

    void reopened(ChannelId channel) {
        closedAt.remove(channel);
    }

    /** Whether {@code channel} was closed here within the last {@value #REMEMBERED_SECONDS} s. */
    boolean contains(ChannelId channel, long nowNanos) {
        Long at = closedAt.get(channel);
        return at != null && nowNanos - at < REMEMBERED_NANOS;
    }
}
