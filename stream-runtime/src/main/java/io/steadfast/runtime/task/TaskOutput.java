package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * All outputs of a task: routes each emitted event over its output edges, batches per channel, and carries
 * the task's watermark along. Reports credit so that the task only takes more input when every channel can
 * take more output (backpressure). Task thread only, except {@link #onCreditAvailable}.
 */
final class TaskOutput implements EventOutput {

    private final List<OutputEdgeWriter> edges;
    private final List<ChannelWriter> channels = new ArrayList<>();
    private final TaskMetrics metrics;
    private long watermark = Long.MIN_VALUE;
    private long nowNanos = System.nanoTime();
    private long unpublishedRecordsOut;
    private long channelWritesThisTurn;
    /** Per checkpoint not yet known complete: the barrier's sequence number on each channel, in channel order. */
    private final NavigableMap<Long, long[]> barrierSeqs = new TreeMap<>();
    private static final int MAX_TRACKED_CHECKPOINTS = 64;

    TaskOutput(List<OutputEdgeWriter> edges, TaskMetrics metrics) {
        this.edges = List.copyOf(edges);
        this.metrics = metrics;
        for (OutputEdgeWriter edge : edges) {
            channels.addAll(List.of(edge.channels()));
        }
    }

    /** Sets the time used to stamp batches; the task calls it once per turn, not per event. */
    void tick(long now) {
        this.nowNanos = now;
    }

    @Override
    public void emit(Event<Object> event) {
        long written = 0;
        for (OutputEdgeWriter edge : edges) {
            written += edge.write(event, nowNanos);
        }
        if (written > 0) {
            unpublishedRecordsOut++;
            channelWritesThisTurn += written;
        }
    }

    /**
     * Ends the turn that {@link #tick} began: adds the records emitted in it to the metrics (once per turn keeps the
     * hot path cheap), and tells them the turn's length, which the output wait of its records is stamped from.
     */
    void publishMetrics(long now) {
        if (unpublishedRecordsOut > 0) {
            metrics.addRecordsOut(unpublishedRecordsOut);
            unpublishedRecordsOut = 0;
        }
        if (channelWritesThisTurn > 0) {
            metrics.addEmittedDuringTurn(channelWritesThisTurn, Math.max(0, now - nowNanos));
            channelWritesThisTurn = 0;
        }
    }

    boolean hasCredit() {
        for (ChannelWriter channel : channels) {
            if (!channel.sender().hasCredit()) {
                return false;
            }
        }
        return true;
    }

    void onCreditAvailable(Runnable wakeUp) {
        channels.forEach(channel -> channel.sender().onCreditAvailable(wakeUp));
    }

    /** Registers what to run before any frame leaves the task. */
    void beforeSend(Runnable action) {
        channels.forEach(channel -> channel.beforeSend(action));
    }

    void advanceWatermark(long newWatermark) {
        if (newWatermark > watermark) {
            watermark = newWatermark;
        }
    }

    long watermark() {
        return watermark;
    }

    /** @return nanos until some channel next needs a flush, or {@link Long#MAX_VALUE} */
    long flushDue(long now) {
        long wait = Long.MAX_VALUE;
        for (ChannelWriter channel : channels) {
            wait = Math.min(wait, channel.flushIfDue(now, watermark));
        }
        return wait;
    }

    void flushAll(long now) {
        for (ChannelWriter channel : channels) {
            channel.flush(now, watermark);
        }
    }

    /**
     * Sends checkpoint barrier {@code checkpointId} on every output channel, after what is buffered there. A
     * task whose output ended (final watermark sent) sends none: its receivers count an ended channel as
     * aligned, and a barrier after the end would start an alignment nothing else joins.
     *
     * @return the barrier's sequence number on each channel (for an ended task, its last one), by channel index
     */
    Map<Integer, Long> broadcastBarrier(long checkpointId, long now) {
        long[] seqs = new long[channels.size()];
        Map<Integer, Long> byIndex = new HashMap<>();
        boolean ended = watermark == Long.MAX_VALUE;
        for (int i = 0; i < channels.size(); i++) {
            ChannelWriter channel = channels.get(i);
            if (ended) {
                channel.flush(now, watermark);
            }
            seqs[i] = ended ? channel.lastSeq() : channel.sendBarrier(checkpointId, now, watermark);
            byIndex.put(channel.sender().channel().index(), seqs[i]);
        }
        barrierSeqs.put(checkpointId, seqs);
        while (barrierSeqs.size() > MAX_TRACKED_CHECKPOINTS) {
            barrierSeqs.pollFirstEntry(); // never completed: the coordinator gave up on it long ago
        }
        return byIndex;
    }

    /**
     * Checkpoint {@code checkpointId} completed: every record up to its barrier on each channel is covered by
     * the receivers' snapshots, so output logs may drop it. Uses the latest barrier at or before the checkpoint
     * (a task that never saw this checkpoint's barrier, having been restored after it, holds an older one).
     */
    void checkpointCompleted(long checkpointId) {
        Map.Entry<Long, long[]> covered = barrierSeqs.floorEntry(checkpointId);
        if (covered == null) {
            return;
        }
        long[] seqs = covered.getValue();
        for (int i = 0; i < channels.size(); i++) {
            channels.get(i).sender().truncateLog(seqs[i]);
        }
        barrierSeqs.headMap(covered.getKey(), true).clear();
    }

    /** Numbers each channel's output from one after the barrier it sent at the restored checkpoint. */
    void resumeAt(ChannelPositions positions) {
        for (ChannelWriter channel : channels) {
            Long barrierSeq = positions.outputs().get(channel.sender().channel().index());
            if (barrierSeq == null) {
                throw new IllegalArgumentException("the snapshot has no position for output channel "
                        + channel.sender().channel());
            }
            channel.resumeAt(barrierSeq + 1);
        }
    }

    boolean isDrained() {
        for (ChannelWriter channel : channels) {
            if (!channel.isDrained(watermark)) {
                return false;
            }
        }
        return true;
    }

    boolean isSink() {
        return channels.isEmpty();
    }
}
