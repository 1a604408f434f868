package io.steadfast.dashboard.overview;

import io.steadfast.dashboard.router.RouterHost;
import io.steadfast.dashboard.router.RouterTopologyDetail.OperatorRate;
import io.steadfast.dashboard.router.RouterTopologyDetail.TaskState;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Everything the page shows, read from the router at one moment: {@code GET /api/v1/overview} and each
 * {@code overview} event of {@code GET /api/v1/events}.
 *
 * @param routerUrl the router it was read from
 * @param routerReachable false if the router could not be read; then {@code error} says why and the lists are empty
 * @param fetchedAt when it was read (the dashboard's clock); heartbeat ages are relative to it
 * @param error why the router could not be read, or null
 * @param hosts every host the router knows
 * @param topologies every deployed topology, in the router's order
 */
public record Overview(URI routerUrl, boolean routerReachable, Instant fetchedAt, @Nullable String error,
                       List<RouterHost> hosts, List<TopologyOverview> topologies) {

    static Overview unreachable(URI routerUrl, Instant fetchedAt, String error) {
        return new Overview(routerUrl, false, fetchedAt, error, List.of(), List.of());
    }

    /**
     * One topology with its operators and tasks.
     *
     * @param id the topology id
     * @param status RUNNING, FINISHED or FAILED
     * @param deployedAt when it was deployed
     * @param operators per-operator totals and rates, in plan order; empty if {@code error} is set
     * @param tasks every task, in plan order; empty if {@code error} is set
     * @param error why its detail could not be read (the list entry was), or null
     */
    public record TopologyOverview(String id, String status, @Nullable Instant deployedAt, List<OperatorRate> operators,
                                   List<TaskState> tasks, @Nullable String error) {
    }
}
