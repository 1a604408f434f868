package io.steadfast.runtime.recovery;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.task.TaskMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Watches a task recovered in place until it has caught up: it has replayed its logged decisions, taken in
 * everything its live upstream tasks had sent when they were pointed at it (their heads, given by
 * {@link #target}), and then found nothing more waiting. Input from upstream tasks recovered with it needs no
 * target: its own replay covers what it had taken from them before, and they catch up themselves.
 *
 * <p>The heads reach the task with the router's catch-up message, which may come after the task took them in: until
 * they are all known, the watch remembers each moment the task was idle with more input taken since the last one, and
 * the catch-up is the first of those moments at which every head had been taken in (or a later one, once they are
 * known). Task thread only, except {@link #result()}.
 */
public final class CatchUpWatch {

    private final long startNanos;
    private final long recordsAtStart;
    private final long bytesAtStart;
    /** Input channels from live upstream tasks whose head is not known yet. */
    private final Set<ChannelId> awaitingTarget;
    private final Map<ChannelId, Long> targets = new HashMap<>();
    /** Idle moments while heads were missing, each with more input taken than the one before; oldest first. */
    private final List<IdleMoment> idleMoments = new ArrayList<>();
    private volatile RecoveryCatchUp result;

    /** The most idle moments remembered: a catch-up whose heads come later is timed when they come. */
    static final int MAX_IDLE_MOMENTS = 4096;

    private record IdleMoment(long nanos, long records, long bytes, Map<ChannelId, Long> seqs) {
    }

    /**
     * @param startNanos  when the host was asked to recover the task ({@link System#nanoTime()})
     * @param liveInputs  the task's input channels whose upstream task kept running
     */
    public CatchUpWatch(long startNanos, Set<ChannelId> liveInputs, TaskMetrics metrics) {
        this.startNanos = startNanos;
        this.awaitingTarget = new TreeSet<>(liveInputs);
        this.recordsAtStart = metrics.recordsIn();
        this.bytesAtStart = metrics.bytesIn();
    }

    /** The live upstream of {@code channel} had sent up to {@code headSeq} when it was redirected here. */
    public void target(ChannelId channel, long headSeq) {
        if (awaitingTarget.remove(channel)) {
            targets.put(channel, headSeq);
        }
    }

    /**
     * Called when the task found nothing to do after its replay.
     *
     * @param deliveredSeq the last sequence number taken from each input channel
     */
    public void idle(long nowNanos, Map<ChannelId, long[]> deliveredSeq, TaskMetrics metrics) {
        if (result != null) {
            return;
        }
        if (!awaitingTarget.isEmpty()) {
            remember(new IdleMoment(nowNanos, metrics.recordsIn(), metrics.bytesIn(), liveSeqs(deliveredSeq)));
            return;
        }
        if (!reachedTargets(channel -> deliveredSeq.get(channel)[0])) {
            return;
        }
        IdleMoment first = idleMoments.stream().filter(moment -> reachedTargets(moment.seqs()::get)).findFirst()
                .orElseGet(() -> new IdleMoment(nowNanos, metrics.recordsIn(), metrics.bytesIn(), Map.of()));
        result = new RecoveryCatchUp((first.nanos() - startNanos) / 1_000_000, first.records() - recordsAtStart,
                first.bytes() - bytesAtStart);
        idleMoments.clear();
    }

    private Map<ChannelId, Long> liveSeqs(Map<ChannelId, long[]> deliveredSeq) {
        Map<ChannelId, Long> seqs = new HashMap<>();
        awaitingTarget.forEach(channel -> seqs.put(channel, deliveredSeq.get(channel)[0]));
        targets.keySet().forEach(channel -> seqs.put(channel, deliveredSeq.get(channel)[0]));
        return seqs;
    }

    private void remember(IdleMoment moment) {
        boolean tookMore = idleMoments.isEmpty()
                || !idleMoments.get(idleMoments.size() - 1).seqs().equals(moment.seqs());
        if (tookMore && idleMoments.size() < MAX_IDLE_MOMENTS) {
            idleMoments.add(moment);
        }
    }

    /** Whether every head was taken in, by the last sequence number taken from each channel. */
    private boolean reachedTargets(ToLongFunction<ChannelId> takenSeq) {
        for (Map.Entry<ChannelId, Long> target : targets.entrySet()) {
            if (takenSeq.applyAsLong(target.getKey()) < target.getValue()) {
                return false;
            }
        }
        return true;
    }

    public boolean caughtUp() {
        return result != null;
    }

    /** The catch-up, once it happened; null before. Any thread. */
    public RecoveryCatchUp result() {
        return result;
    }
}
