package io.steadfast.dashboard.router;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A host as the router lists it ({@code GET /api/v1/hosts}); fields the dashboard does not show are not read.
 *
 * @param hostId the host id
 * @param controlUrl base URL of the host's REST API
 * @param dataEndpoint the host's data-plane endpoint
 * @param status LIVE or DEAD
 * @param lastHeartbeat when the router last heard from it, or null if never
 * @param tasks the tasks it reported in that heartbeat
 */
public record RouterHost(String hostId, @Nullable String controlUrl, @Nullable String dataEndpoint, String status,
                         @Nullable Instant lastHeartbeat, List<HostTask> tasks) {

    public RouterHost {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    /**
     * One task in a host's heartbeat.
     *
     * @param task the task id
     * @param status its lifecycle state
     */
    public record HostTask(String task, @Nullable String status) {
    }
}
