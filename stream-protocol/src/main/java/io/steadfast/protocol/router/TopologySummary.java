package io.steadfast.protocol.router;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;

/**
 * One line of the router's topology list, {@code GET /api/v1/topologies}.
 *
 * @param id         the topology id
 * @param status     RUNNING, FINISHED (every task finished) or FAILED (a task failed)
 * @param operators  the operator ids in plan order
 * @param tasks      how many tasks the topology has
 * @param deployedAt when it was deployed
 */
public record TopologySummary(TopologyId id, String status, List<OperatorId> operators, int tasks,
                              Instant deployedAt) {

    public TopologySummary {
        operators = operators == null ? List.of() : List.copyOf(operators);
    }
}
