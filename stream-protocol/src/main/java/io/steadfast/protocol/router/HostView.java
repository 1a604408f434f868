package io.steadfast.protocol.router;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A host as the router lists it in {@code GET /api/v1/hosts}.
 *
 * @param hostId        the host's id
 * @param kind          what it runs: PE (a pe-host-service) or VOTER (a voter-service, vote tasks only); PE if a
 *                      router older than voter hosts names none
 * @param controlUrl    base URL of its REST API
 * @param dataEndpoint  its data-plane endpoint
 * @param status        {@value #LIVE} or DEAD
 * @param lastHeartbeat when the router last heard from it
 * @param tasks         its task reports from that heartbeat
 */
@JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE) // its isX() queries are no JSON members
public record HostView(HostId hostId, HostKind kind, URI controlUrl, String dataEndpoint, String status,
                       @Nullable Instant lastHeartbeat, List<TaskReport> tasks) {

    /** The status of a host the router hears from. */
    public static final String LIVE = "LIVE";

    public HostView {
        kind = kind == null ? HostKind.PE : kind;
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    public boolean isLive() {
        return LIVE.equals(status);
    }
}
