package io.steadfast.router.topology;

import java.time.Instant;
import java.util.List;

/**
 * One line of the topology list.
 *
 * @param id the topology id
 * @param status RUNNING, FINISHED (every task finished) or FAILED (a task failed)
 * @param operators the operator ids in plan order
 * @param tasks how many tasks the topology has
 * @param deployedAt when it was deployed
 */
public record TopologySummary(String id, String status, List<String> operators, int tasks, Instant deployedAt) {
}
