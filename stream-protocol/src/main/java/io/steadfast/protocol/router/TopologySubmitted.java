package io.steadfast.protocol.router;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;

/**
 * The router's answer to {@code POST /api/v1/topologies}: the topology it deployed and where it placed each task.
 *
 * @param id       the topology id
 * @param status   always {@value #RUNNING}; whether it finished or failed, its detail says later
 * @param tasks    where each task runs, in plan order
 * @param warnings what the placement could not do as it should, for people (e.g. versions of an N-version operator
 *                 that share a host for want of hosts); empty if nothing
 */
public record TopologySubmitted(TopologyId id, String status, List<PlacedTask> tasks, List<String> warnings) {

    /** The status of a topology the router deployed. */
    public static final String RUNNING = "RUNNING";

    public TopologySubmitted {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /**
     * One task and the host the router placed it on.
     *
     * @param task the task
     * @param host its host
     */
    public record PlacedTask(TaskId task, HostId host) {
    }
}
