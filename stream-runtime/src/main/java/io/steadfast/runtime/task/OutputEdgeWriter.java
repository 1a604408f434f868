package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.runtime.plan.KeyPartitioner;
import io.steadfast.runtime.topology.Partitioning;
import java.util.List;

/** Routes the events of a task to the channels of one downstream operator. Task thread only. */
final class OutputEdgeWriter {

    private final Partitioning partitioning;
    private final ChannelWriter[] channels;
    private int nextRoundRobin;

    OutputEdgeWriter(Partitioning partitioning, List<ChannelWriter> channels) {
        this.partitioning = partitioning;
        this.channels = channels.toArray(ChannelWriter[]::new);
    }

    /** @return how many records were written (one per receiving channel) */
    int write(Event<Object> event, long nowNanos) {
        switch (partitioning) {
            case KEY -> channels[KeyPartitioner.subtaskFor(event.key(), channels.length)].add(event, nowNanos);
            case ROUND_ROBIN -> {
                channels[nextRoundRobin].add(event, nowNanos);
                nextRoundRobin = nextRoundRobin + 1 == channels.length ? 0 : nextRoundRobin + 1;
            }
            case BROADCAST -> {
                for (ChannelWriter channel : channels) {
                    channel.add(event, nowNanos);
                }
                return channels.length;
            }
            default -> throw new IllegalStateException("unknown partitioning " + partitioning);
        }
        return 1;
    }

    ChannelWriter[] channels() {
        return channels;
    }
}
