package io.steadfast.runtime.host;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Objects;

/**
 * One topology's deployment on one host: its epoch and the tasks of it on that host. A host reports what it runs
 * this way in each heartbeat; the router answers with what it wants the host to run ({@link HostAssignment}).
 * Immutable; JSON-ready.
 *
 * @param topology the topology
 * @param epoch the deployment's epoch (0 for the first, one more for each global recovery)
 * @param tasks the deployment's tasks on the host, sorted; empty when none are placed there
 */
public record HostDeployment(TopologyId topology, int epoch, List<TaskId> tasks) {

    public HostDeployment {
        Objects.requireNonNull(topology, "topology");
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch of topology '" + topology + "' must be >= 0, was " + epoch);
        }
        tasks = tasks == null ? List.of() : tasks.stream().sorted().toList();
    }

    @Override
    public String toString() {
        return topology + "@" + epoch + tasks;
    }
}
