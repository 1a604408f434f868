package io.steadfast.dashboard.router;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A topology as the router details it ({@code GET /api/v1/topologies/{id}}). The submitted spec is not read:
 * the page does not show it, and it would be pushed to every open page every second.
 *
 * @param id the topology id
 * @param status RUNNING, FINISHED or FAILED
 * @param deployedAt when it was deployed
 * @param tasks every task, in plan order
 * @param operators every operator, in plan order
 */
public record RouterTopologyDetail(String id, String status, @Nullable Instant deployedAt, List<TaskState> tasks,
                                   List<OperatorRate> operators) {

    public RouterTopologyDetail {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        operators = operators == null ? List.of() : List.copyOf(operators);
    }

    /**
     * One task as its host last reported it.
     *
     * @param task the task id
     * @param host the host it runs on
     * @param hostStatus LIVE, DEAD or UNREGISTERED
     * @param status the task status, or PENDING before the host reported it
     * @param recordsIn records taken in
     * @param recordsOut events emitted
     * @param failure the failure text of a FAILED task, or null
     */
    public record TaskState(String task, String host, @Nullable String hostStatus, String status, long recordsIn,
                            long recordsOut, @Nullable String failure) {
    }

    /**
     * Totals of one operator over its tasks.
     *
     * @param operator the operator id
     * @param recordsIn records taken in
     * @param recordsOut events emitted
     * @param eventsPerSecond events per second between the router's last two heartbeats
     */
    public record OperatorRate(String operator, long recordsIn, long recordsOut, double eventsPerSecond) {
    }
}
