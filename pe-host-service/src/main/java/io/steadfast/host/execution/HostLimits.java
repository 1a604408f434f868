package io.steadfast.host.execution;

import io.steadfast.host.execution.DeploymentRejectedException.Reason;
import io.steadfast.protocol.problem.FieldError;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.ChannelFootprint;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologyLimits;
import java.util.ArrayList;
import java.util.List;

/**
 * The most tasks and channels one host runs at once, over all topologies ({@code steadfast.host.limits.*}). A
 * deployment or an in-place recovery that would take the host beyond either is refused before anything of it is
 * built: building a million channels took a host's whole heap, and the host stayed up without heartbeating while
 * the tasks it already ran starved.
 *
 * @param maxTasks the most tasks at once; each runs on a thread of its own
 * @param maxChannels the most channels with at least one end at a task here (both ends here count once)
 */
public record HostLimits(int maxTasks, int maxChannels) {

    /**
     * 512 tasks, so that a topology at the router's default {@code max-total-tasks} (4,096) fits on 8 hosts, as one
     * at its default {@code max-channels} does; a task is a thread, and a few hundred threads are already far more
     * than the cores of a host.
     */
    public static final int DEFAULT_MAX_TASKS = 512;

    /**
     * 8,192 channels take about 288 MiB of heap before any event flows ({@link ChannelFootprint}: 36 KiB each),
     * about a quarter of the 1 GiB the local cluster gives a host, which leaves the rest to keyed state, frames in
     * flight and output logs. A plan at the router's default limit ({@link TopologyLimits#DEFAULT_MAX_CHANNELS},
     * 65,536) fits on 8 such hosts.
     */
    public static final int DEFAULT_MAX_CHANNELS = 8_192;

    public HostLimits {
        if (maxTasks < 1) {
            throw new IllegalArgumentException("steadfast.host.limits.max-tasks must be >= 1, was " + maxTasks);
        }
        if (maxChannels < 1) {
            throw new IllegalArgumentException("steadfast.host.limits.max-channels must be >= 1, was " + maxChannels);
        }
    }

    /** {@link #DEFAULT_MAX_TASKS} tasks and {@link #DEFAULT_MAX_CHANNELS} channels. */
    public static HostLimits defaults() {
        return new HostLimits(DEFAULT_MAX_TASKS, DEFAULT_MAX_CHANNELS);
    }

    /**
     * Refuses what a topology would add to what a host runs if the sum is beyond these limits.
     *
     * @throws DeploymentRejectedException {@link Reason#OVER_CAPACITY}, naming each limit passed with the counts
     */
    void requireRoom(HostId host, TopologyId topology, HostLoad running, HostLoad adding) {
        HostLoad total = running.plus(adding);
        List<FieldError> problems = new ArrayList<>();
        if (total.tasks() > maxTasks) {
            problems.add(FieldError.of("tasks", adding.tasks() + " tasks of topology '"
                    + topology + "' would make " + total.tasks() + " on this host with the " + running.tasks()
                    + " it runs, over its limit of " + maxTasks + " (steadfast.host.limits.max-tasks)"));
        }
        if (total.channels() > maxChannels) {
            problems.add(FieldError.of("channels", adding.channels() + " channels of topology '"
                    + topology + "' would make " + total.channels() + " on this host with the " + running.channels()
                    + " it runs, over its limit of " + maxChannels + " (steadfast.host.limits.max-channels); they"
                    + " would take " + ChannelFootprint.describe(total.channels()) + " of heap before any event flows"));
        }
        if (!problems.isEmpty()) {
            throw new DeploymentRejectedException(topology, Reason.OVER_CAPACITY, "Host " + host + " cannot take"
                    + " topology '" + topology + "' beside what it runs; spread the topology over more hosts, lower"
                    + " its parallelism, or raise steadfast.host.limits.* if this host's heap allows:", problems);
        }
    }
}
