package io.steadfast.host.replaylog;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The segments and truncations waiting to be shipped, in the order they happened, bounded by the bytes of the
 * segments not yet stored. A segment that does not fit is dropped, and its channel's shipped log is marked
 * incomplete from there until a truncation makes the dropped records unneeded.
 *
 * <p>Threading: {@link #offer} and {@link #truncate} may be called by any thread (the data plane's IO thread) and
 * never wait for the shipping thread; {@link #take}, {@link #stored} and {@link #lost} belong to the one shipping
 * thread; the queries may be called by any thread.
 */
final class ReplayLogQueue {

    /** What the shipping thread takes at once: segments to store, then truncations to send after them. */
    record Batch(List<ReplayLogSegment> segments, Map<ChannelId, Long> truncations, long bytes) {

        boolean isEmpty() {
            return segments.isEmpty() && truncations.isEmpty();
        }
    }

    /** The records of a channel dropped and still needed: {@code from..to}. */
    private record Loss(long from, long to) {

        Loss plus(long first, long last) {
            return new Loss(Math.min(from, first), Math.max(to, last));
        }
    }

    private sealed interface Item permits Queued, Truncation {
        long enqueuedNanos();
    }

    private record Queued(ReplayLogSegment segment, long enqueuedNanos) implements Item {
    }

    private record Truncation(ChannelId channel, long enqueuedNanos) implements Item {
    }

    private final long capacityBytes;
    private final ConcurrentLinkedQueue<Item> items = new ConcurrentLinkedQueue<>();
    /** Bytes of the segments queued or being shipped: released when stored or lost. */
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Map<ChannelId, Long> truncatedUpTo = new ConcurrentHashMap<>();
    private final Map<ChannelId, Loss> losses = new ConcurrentHashMap<>();

    ReplayLogQueue(long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("capacity must be positive, was " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    /**
     * Queues a segment, or drops it when the queue has no room for it (counted, and the channel marked incomplete).
     *
     * @return the bytes queued after the call, or -1 when the segment was dropped
     */
    long offer(ReplayLogSegment segment, long nowNanos) {
        long size = segment.sizeBytes();
        long queued;
        do {
            queued = bytes.get();
            if (queued + size > capacityBytes) {
                drop(segment);
                return -1;
            }
        } while (!bytes.compareAndSet(queued, queued + size));
        items.add(new Queued(segment, nowNanos));
        return queued + size;
    }

    /** Drops a segment that was never queued: counted, and its channel marked incomplete. Any thread. */
    void drop(ReplayLogSegment segment) {
        dropped.incrementAndGet();
        markLost(segment);
    }

    /** Queues a truncation: the channel's records up to {@code upToSeq} are no longer needed. */
    void truncate(ChannelId channel, long upToSeq, long nowNanos) {
        long upTo = truncatedUpTo.merge(channel, upToSeq, Math::max);
        losses.computeIfPresent(channel, (c, loss) -> loss.to() <= upTo ? null
                : new Loss(Math.max(loss.from(), upTo + 1), loss.to()));
        items.add(new Truncation(channel, nowNanos));
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    /** When the oldest item was queued, or -1 when nothing is queued. */
    long oldestEnqueuedNanos() {
        Item head = items.peek();
        return head == null ? -1 : head.enqueuedNanos();
    }

    /**
     * Takes segments in order until the next would make the batch larger than {@code maxBytes} (at least one), and
     * the truncations queued among them, coalesced per channel to the highest position. Segments that a truncation
     * made unneeded are left out and released. Shipping thread only.
     */
    Batch take(long maxBytes) {
        List<ReplayLogSegment> segments = new ArrayList<>();
        Map<ChannelId, Long> truncations = new LinkedHashMap<>();
        long batchBytes = 0;
        for (Item head = items.peek(); head != null; head = items.peek()) {
            if (head instanceof Queued queued) {
                ReplayLogSegment segment = queued.segment();
                if (segment.lastSeq() <= truncatedUpTo.getOrDefault(segment.channel(), 0L)) {
                    items.poll();
                    bytes.addAndGet(-segment.sizeBytes());
                    continue;
                }
                if (!segments.isEmpty() && batchBytes + segment.sizeBytes() > maxBytes) {
                    break;
                }
                items.poll();
                segments.add(segment);
                batchBytes += segment.sizeBytes();
            } else {
                ChannelId channel = ((Truncation) items.poll()).channel();
                truncations.put(channel, truncatedUpTo.get(channel));
            }
        }
        return new Batch(List.copyOf(segments), truncations, batchBytes);
    }

    /** The store holds these segments now. Shipping thread only. */
    void stored(List<ReplayLogSegment> segments) {
        release(segments);
    }

    /** These segments will never be stored (refused by the store, or the host is stopping). Shipping thread only. */
    void lost(List<ReplayLogSegment> segments) {
        release(segments);
        dropped.addAndGet(segments.size());
        segments.forEach(this::markLost);
    }

    private void release(List<ReplayLogSegment> segments) {
        bytes.addAndGet(-segments.stream().mapToLong(ReplayLogSegment::sizeBytes).sum());
    }

    private void markLost(ReplayLogSegment segment) {
        if (segment.lastSeq() > truncatedUpTo.getOrDefault(segment.channel(), 0L)) {
            losses.merge(segment.channel(), new Loss(segment.firstSeq(), segment.lastSeq()),
                    (loss, more) -> loss.plus(more.from(), more.to()));
        }
    }

    /** See {@link ReplayLogShipper#completeAfter}. */
    boolean completeAfter(ChannelId channel, long seq) {
        if (seq < truncatedUpTo.getOrDefault(channel, 0L)) {
            return false;
        }
        Loss loss = losses.get(channel);
        return loss == null || loss.to() <= seq;
    }

    /** The first record of the channel that was dropped and is still needed. */
    OptionalLong incompleteFrom(ChannelId channel) {
        Loss loss = losses.get(channel);
        return loss == null ? OptionalLong.empty() : OptionalLong.of(loss.from());
    }

    /** Bytes of segments queued or being shipped. */
    long bytes() {
        return bytes.get();
    }

    /** Segments dropped since the start: no room in the queue, refused by the store, or left at shutdown. */
    long dropped() {
        return dropped.get();
    }
}
