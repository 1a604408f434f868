package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import java.util.ArrayList;
import java.util.List;

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
        }
    }

    /** Adds the records emitted since the last call to the metrics; once per turn keeps the hot path cheap. */
    void publishMetrics() {
        if (unpublishedRecordsOut > 0) {
            metrics.addRecordsOut(unpublishedRecordsOut);
            unpublishedRecordsOut = 0;
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

    /** Sends checkpoint barrier {@code checkpointId} on every output channel, after what is buffered there. */
    void broadcastBarrier(long checkpointId, long now) {
        for (ChannelWriter channel : channels) {
            channel.sendBarrier(checkpointId, now, watermark);
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
