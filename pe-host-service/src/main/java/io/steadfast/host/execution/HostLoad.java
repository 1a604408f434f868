package io.steadfast.host.execution;

import io.steadfast.runtime.plan.ChannelSpec;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import java.util.Set;

/**
 * Tasks and channels, counted as a host counts what it runs against its {@link HostLimits}: a channel counts once
 * if at least one of its ends is a task here.
 */
record HostLoad(long tasks, long channels) {

    static final HostLoad NONE = new HostLoad(0, 0);

    /** What a host running {@code tasks} of {@code plan} runs of it: read off the plan, nothing built. */
    static HostLoad of(ExecutionPlan plan, Set<TaskId> tasks) {
        long channels = 0;
        for (ChannelSpec channel : plan.channels()) {
            if (tasks.contains(channel.from()) || tasks.contains(channel.to())) {
                channels++;
            }
        }
        return new HostLoad(tasks.size(), channels);
    }

    HostLoad plus(HostLoad other) {
        return new HostLoad(tasks + other.tasks, channels + other.channels);
    }

    HostLoad minus(HostLoad other) {
        return new HostLoad(tasks - other.tasks, channels - other.channels);
    }
}
