package io.steadfast.dashboard.router;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One line of the router's topology list ({@code GET /api/v1/topologies}).
 *
 * @param id the topology id
 * @param status RUNNING, FINISHED or FAILED
 * @param operators the operator ids in plan order
 * @param tasks how many tasks the topology has
 * @param deployedAt when it was deployed
 */
public record RouterTopologySummary(String id, String status, List<String> operators, int tasks,
                                    @Nullable Instant deployedAt) {

    public RouterTopologySummary {
        operators = operators == null ? List.of() : List.copyOf(operators);
    }
}
