package io.steadfast.router.topology;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * A topology the router deployed: the spec as submitted, its plan and where each task runs. Immutable.
 *
 * @param id the topology id
 * @param spec the submitted JSON document
 * @param plan the expanded plan
 * @param placement the host of every task
 * @param deployedAt when every host accepted its share
 */
public record DeployedTopology(TopologyId id, JsonNode spec, ExecutionPlan plan, Map<TaskId, HostId> placement,
                               Instant deployedAt) {

    public DeployedTopology {
        spec = spec.deepCopy();
        placement = Map.copyOf(placement);
    }

    @Override
    public JsonNode spec() {
        return spec.deepCopy();
    }

    /** The hosts that run at least one task, sorted. */
    public Set<HostId> hosts() {
        return new TreeSet<>(placement.values());
    }
}
