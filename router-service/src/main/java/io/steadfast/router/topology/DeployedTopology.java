package io.steadfast.router.topology;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
 * @param incarnations the incarnation of every task recovered at least once (see {@link TaskPlacement}); 0 for the
 *                     others
 */
public record DeployedTopology(TopologyId id, JsonNode spec, ExecutionPlan plan, Map<TaskId, HostId> placement,
                               Instant deployedAt, Map<TaskId, Integer> incarnations) {

    /** A topology none of whose tasks was recovered yet. */
    public DeployedTopology(TopologyId id, JsonNode spec, ExecutionPlan plan, Map<TaskId, HostId> placement,
                            Instant deployedAt) {
        this(id, spec, plan, placement, deployedAt, Map.of());
    }

    public DeployedTopology {
        spec = spec.deepCopy();
        placement = Map.copyOf(placement);
        incarnations = incarnations == null ? Map.of() : Map.copyOf(incarnations);
    }

    /** The incarnation of {@code task} that runs now. */
    public int incarnationOf(TaskId task) {
        return incarnations.getOrDefault(task, 0);
    }

    /**
     * This topology with {@code moved} tasks placed anew ({@code placement} is the whole new placement) and plan
     * {@code plan}: each moved task becomes a new incarnation, one above the one it replaces.
     */
    public DeployedTopology recovered(ExecutionPlan plan, Map<TaskId, HostId> placement, Collection<TaskId> moved) {
        Map<TaskId, Integer> next = new TreeMap<>(incarnations);
        moved.forEach(task -> next.put(task, incarnationOf(task) + 1));
        return new DeployedTopology(id, spec, plan, placement, deployedAt, next);
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
