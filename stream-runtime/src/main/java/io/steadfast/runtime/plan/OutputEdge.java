package io.steadfast.runtime.plan;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.Partitioning;
import java.util.List;
import java.util.Objects;

/**
 * The channels from one task to every subtask of one downstream operator.
 *
 * @param to the downstream operator
 * @param partitioning how an event chooses among {@code channels}: by key ({@link KeyPartitioner}), in turn,
 *                     or all of them
 * @param channels one per downstream subtask, ordered by subtask: {@code channels.get(i)} leads to subtask
 *                 {@code i}
 */
public record OutputEdge(OperatorId to, Partitioning partitioning, List<ChannelId> channels) {

    public OutputEdge {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(partitioning, "partitioning");
        channels = List.copyOf(channels);
        if (channels.isEmpty()) {
            throw new IllegalArgumentException("an output edge to '" + to + "' needs at least one channel");
        }
    }
}
