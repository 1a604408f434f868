package io.steadfast.dashboard.fault;

import io.steadfast.dashboard.router.RouterClient;
import io.steadfast.dashboard.web.DashboardRequestException;
import io.steadfast.dashboard.web.DashboardRequestException.Reason;
import io.steadfast.protocol.router.HostView;
import java.net.URI;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * Kills a host from the page, for demos and drills: looks the host up in the router's host list, then calls the
 * host's own fault injection, {@code POST {controlUrl}/api/v1/fault/kill}, which answers 202 and halts the process.
 * Two switches guard it: the dashboard's {@code steadfast.dashboard.fault-injection.enabled} and the host's
 * {@code steadfast.host.fault-injection.enabled}; each failure is a {@link DashboardRequestException} saying which.
 * Thread-safe.
 */
public class HostKiller {

    static final String KILL_PATH = "/api/v1/fault/kill";

    private final boolean enabled;
    private final RouterClient router;
    private final RestClient hosts;

    /**
     * @param enabled whether the dashboard kills hosts at all (steadfast.dashboard.fault-injection.enabled)
     * @param router  lists the hosts and their control URLs
     * @param hosts   calls the hosts; not the router client, whose leader-following would take a host that cannot be
     *                reached for a router that cannot
     */
    public HostKiller(boolean enabled, RouterClient router, RestClient hosts) {
        this.enabled = enabled;
        this.router = router;
        this.hosts = hosts;
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * Has host {@code hostId} halt.
     *
     * @throws DashboardRequestException FAULT_INJECTION_DISABLED, HOST_NOT_FOUND, HOST_UNREACHABLE,
     *                                   HOST_FAULT_INJECTION_DISABLED or HOST_ERROR
     * @throws io.steadfast.dashboard.router.RouterRequestException if the router's host list could not be read
     */
    public KillAccepted kill(String hostId) {
        if (!enabled) {
            throw new DashboardRequestException(Reason.FAULT_INJECTION_DISABLED, "Killing hosts from the dashboard"
                    + " is off, so host '" + hostId + "' was left alone; start the dashboard with"
                    + " steadfast.dashboard.fault-injection.enabled=true to allow it (never where others can reach"
                    + " the dashboard), or kill the host with ./steadfast kill-host");
        }
        URI controlUrl = controlUrlOf(hostId);
        URI kill = URI.create(controlUrl.toString().replaceAll("/+$", "") + KILL_PATH);
        int answered;
        try {
            answered = hosts.post().uri(kill).exchange((request, response) -> response.getStatusCode().value());
        } catch (ResourceAccessException e) {
            throw new DashboardRequestException(Reason.HOST_UNREACHABLE, "POST " + kill + " to host '" + hostId
                    + "' failed: " + e.getMostSpecificCause() + ". Is the host running? The router lists it as"
                    + " having that control URL; it may have halted already", e);
        }
        if (answered == HttpStatus.ACCEPTED.value()) {
            return new KillAccepted(hostId, controlUrl);
        }
        if (answered == HttpStatus.NOT_FOUND.value()) {
            throw new DashboardRequestException(Reason.HOST_FAULT_INJECTION_DISABLED, "Host '" + hostId
                    + "' answered 404 to POST " + kill + ": its fault injection is off. Start the host with"
                    + " steadfast.host.fault-injection.enabled=true (the local cluster does), or kill its process");
        }
        throw new DashboardRequestException(Reason.HOST_ERROR, "Host '" + hostId + "' answered HTTP "
                + answered + " to POST " + kill + " instead of 202; see the host's log");
    }

    private URI controlUrlOf(String hostId) {
        List<HostView> listed = router.hosts();
        return listed.stream().filter(host -> host.hostId().value().equals(hostId)).map(HostView::controlUrl)
                .findFirst().orElseThrow(() -> new DashboardRequestException(Reason.HOST_NOT_FOUND, "The router at "
                        + router.baseUrl() + " lists no host '" + hostId + "'; it lists "
                        + (listed.isEmpty() ? "none" : listed.stream().map(host -> host.hostId().value())
                        .collect(Collectors.joining(", "))) + ". Use an id from GET /api/v1/hosts"));
    }
}
