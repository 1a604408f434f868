package io.steadfast.runtime.plan;

import io.steadfast.runtime.topology.Partitioning;
import java.util.Objects;

/**
 * One channel of an execution plan: the single path from one upstream task to one downstream task.
 *
 * @param id unique within the plan; its index is the channel's position in {@link ExecutionPlan#channels()}
 * @param from the upstream task that writes to it
 * @param to the downstream task that reads from it
 * @param partitioning how the upstream task chooses this channel for an event
 */
public record ChannelSpec(ChannelId id, TaskId from, TaskId to, Partitioning partitioning) {

    public ChannelSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(partitioning, "partitioning");
    }
}
