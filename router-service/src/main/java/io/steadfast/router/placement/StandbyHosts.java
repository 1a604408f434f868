package io.steadfast.router.placement;

import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The warm standby hosts the router keeps free of tasks, so that a failed host's tasks can be recovered onto
 * hosts that have nothing else to do (local recovery). They are not chosen ahead: up to {@code count} live hosts
 * that run no task of any topology are the standbys, those registered last first (a host started to replace a
 * failed one becomes the new standby). New topologies are placed on the other live hosts, unless only standbys
 * are live. Stateless; the count comes from {@code steadfast.router.standby-hosts}.
 */
public final class StandbyHosts {

    private static final Comparator<RegisteredHost> REGISTERED_LAST_FIRST = Comparator
            .comparing(RegisteredHost::registeredAt).reversed().thenComparing(host -> host.id().value());

    private final int count;

    public StandbyHosts(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("steadfast.router.standby-hosts must be >= 0, was " + count);
        }
        this.count = count;
    }

    public int count() {
        return count;
    }

    /** The standby hosts among {@code live}: up to {@link #count()} that run no task, registered last first. */
    public List<RegisteredHost> among(Collection<RegisteredHost> live, Collection<DeployedTopology> topologies) {
        Set<HostId> busy = topologies.stream().flatMap(topology -> topology.placement().values().stream())
                .collect(Collectors.toSet());
        return live.stream().filter(host -> !busy.contains(host.id())).sorted(REGISTERED_LAST_FIRST).limit(count)
                .toList();
    }

    /** The live hosts to place tasks on in the ordinary way: all but the standbys, or all if only standbys live. */
    public List<RegisteredHost> forPlacement(Collection<RegisteredHost> live, Collection<DeployedTopology> topologies) {
        Set<HostId> standby = among(live, topologies).stream().map(RegisteredHost::id).collect(Collectors.toSet());
        List<RegisteredHost> others = live.stream().filter(host -> !standby.contains(host.id())).toList();
        return others.isEmpty() ? List.copyOf(live) : others;
    }

    /**
     * How many tasks of the topologies run on each of {@code hosts} (0 for a host that runs none), leaving out
     * {@code excluded} (a topology being placed anew), or none if null.
     */
    public static Map<HostId, Integer> load(Collection<HostId> hosts, Collection<DeployedTopology> topologies,
                                            TopologyId excluded) {
        Map<HostId, Integer> load = new TreeMap<>();
        hosts.forEach(host -> load.put(host, 0));
        for (DeployedTopology topology : topologies) {
            if (!topology.id().equals(excluded)) {
                topology.placement().values().forEach(host -> load.computeIfPresent(host, (h, n) -> n + 1));
            }
        }
        return load;
    }
}
