package io.steadfast.dashboard.overview;

import io.steadfast.dashboard.overview.Overview.HostOverview;
import io.steadfast.dashboard.overview.Overview.TopologyOverview;
import io.steadfast.dashboard.router.RouterClient;
import io.steadfast.dashboard.router.RouterRequestException;
import io.steadfast.protocol.router.TopologySummary;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads hosts, the topology list and each topology's detail from the router and merges them into an {@link Overview}. */
public class OverviewAssembler {

    private static final Logger log = LoggerFactory.getLogger(OverviewAssembler.class);

    private final RouterClient router;
    private final Clock clock;
    private volatile boolean lastReachable = true;

    public OverviewAssembler(RouterClient router, Clock clock) {
        this.router = router;
        this.clock = clock;
    }

    /** Never throws for a router failure: an unreachable router gives {@code routerReachable=false} and the reason. */
    public Overview assemble() {
        Instant now = clock.instant();
        try {
            List<HostOverview> hosts = router.hosts().stream().map(HostOverview::of).toList();
            List<TopologySummary> summaries = router.topologies();
            List<TopologyOverview> topologies = new ArrayList<>(summaries.size());
            for (TopologySummary summary : summaries) {
                topologyOf(summary).ifPresent(topologies::add);
            }
            noteReachable(true, null);
            return new Overview(router.baseUrl(), true, now, null, hosts, List.copyOf(topologies));
        } catch (RouterRequestException e) {
            noteReachable(false, e.getMessage());
            return Overview.unreachable(router.baseUrl(), now, e.getMessage());
        }
    }

    /**
     * A topology cancelled between the list and its detail is left out. One whose detail fails with an error
     * status keeps its list entry and the error; an unreachable router fails the whole overview, rather than
     * waiting out one timeout per topology.
     */
    private Optional<TopologyOverview> topologyOf(TopologySummary summary) {
        try {
            return router.topology(summary.id()).map(TopologyOverview::of);
        } catch (RouterRequestException e) {
            if (e.reason() == RouterRequestException.Reason.UNREACHABLE) {
                throw e;
            }
            return Optional.of(TopologyOverview.unreadable(summary, e.getMessage()));
        }
    }

    /** Logs changes only: the feed assembles every second, and a down router must not flood the log. */
    private void noteReachable(boolean reachable, String error) {
        if (reachable != lastReachable) {
            lastReachable = reachable;
            if (reachable) {
                log.info("Router {} is reachable again", router.baseUrl());
            } else {
                log.warn("Router {} is unreachable: {}", router.baseUrl(), error);
            }
        }
    }
}
