package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.ChannelId;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Watches a task recovered in place until it has caught up: it has replayed its logged decisions, taken in
 * everything its live upstream tasks had sent when they were pointed at it (their heads, given by
 * {@link #target}), and then found nothing more waiting. Input from upstream tasks recovered with it needs no
 * target: its own replay covers what it had taken from them before, and they catch up themselves. Task thread
 * only, except {@link #result()}.
 */
final class CatchUpWatch {

    private final long startNanos;
    private final long recordsAtStart;
    private final long bytesAtStart;
    /** Input channels from live upstream tasks whose head is not known yet. */
    private final Set<ChannelId> awaitingTarget;
    private final Map<ChannelId, Long> targets = new HashMap<>();
    private volatile RecoveryCatchUp result;

    /**
     * @param startNanos  when the host was asked to recover the task ({@link System#nanoTime()})
     * @param liveInputs  the task's input channels whose upstream task kept running
     */
    CatchUpWatch(long startNanos, Set<ChannelId> liveInputs, TaskMetrics metrics) {
        this.startNanos = startNanos;
        this.awaitingTarget = new TreeSet<>(liveInputs);
        this.recordsAtStart = metrics.recordsIn();
        this.bytesAtStart = metrics.bytesIn();
    }

    /** The live upstream of {@code channel} had sent up to {@code headSeq} when it was redirected here. */
    void target(ChannelId channel, long headSeq) {
        if (awaitingTarget.remove(channel)) {
            targets.put(channel, headSeq);
        }
    }

    /**
     * Called when the task found nothing to do after its replay.
     *
     * @param deliveredSeq the last sequence number taken from each input channel
     */
    void idle(long nowNanos, Map<ChannelId, long[]> deliveredSeq, TaskMetrics metrics) {
        if (result != null || !awaitingTarget.isEmpty()) {
            return;
        }
        for (Map.Entry<ChannelId, Long> target : targets.entrySet()) {
            if (deliveredSeq.get(target.getKey())[0] < target.getValue()) {
                return;
            }
        }
        result = new RecoveryCatchUp((nowNanos - startNanos) / 1_000_000, metrics.recordsIn() - recordsAtStart,
                metrics.bytesIn() - bytesAtStart);
    }

    boolean caughtUp() {
        return result != null;
    }

    /** The catch-up, once it happened; null before. Any thread. */
    RecoveryCatchUp result() {
        return result;
    }
}
