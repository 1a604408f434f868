package io.steadfast.router.placement;

import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The warm standby hosts the router keeps free of tasks, so that a failed host's tasks can be recovered onto
 * hosts that have nothing else to do (local recovery). They are not chosen ahead: of each kind (PE hosts, voters), up
 * to {@code count} live hosts that run no task of any topology are the standbys, those registered last first (a host
 * started to replace a failed one becomes the new standby). A standby takes only the tasks of its kind: a PE standby
 * never gets a vote task, a voter standby never a PE task. New topologies are placed on the other live hosts of each
 * kind, unless only standbys of that kind are live. Stateless; the count comes from
 * {@code steadfast.router.standby-hosts}.
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

    /** How many standbys of each kind the router keeps. */
    public int count() {
        return count;
    }

    /**
     * The standby hosts among {@code live}: of each kind, up to {@link #count()} that run no task, registered last
     * first; PE hosts first, then voters.
     */
    public List<RegisteredHost> among(Collection<RegisteredHost> live, Collection<DeployedTopology> topologies) {
        Set<HostId> busy = topologies.stream().flatMap(topology -> topology.placement().values().stream())
                .collect(Collectors.toSet());
        List<RegisteredHost> standbys = new ArrayList<>();
        for (HostKind kind : HostKind.values()) {
            live.stream().filter(host -> host.kind() == kind && !busy.contains(host.id()))
                    .sorted(REGISTERED_LAST_FIRST).limit(count).forEach(standbys::add);
        }
        return standbys;
    }

    /**
     * The live hosts to place tasks on in the ordinary way: of each kind, all but the standbys, or all if only
     * standbys of that kind are live.
     */
    public List<RegisteredHost> forPlacement(Collection<RegisteredHost> live, Collection<DeployedTopology> topologies) {
        Set<HostId> standby = among(live, topologies).stream().map(RegisteredHost::id).collect(Collectors.toSet());
        List<RegisteredHost> placeable = new ArrayList<>();
        for (HostKind kind : HostKind.values()) {
            List<RegisteredHost> ofKind = live.stream().filter(host -> host.kind() == kind).toList();
            List<RegisteredHost> others = ofKind.stream().filter(host -> !standby.contains(host.id())).toList();
            placeable.addAll(others.isEmpty() ? ofKind : others);
        }
        return placeable;
    }

    /**
     * {@code hosts} as candidates for a {@link TaskPlacer}: each with its kind and the tasks of the topologies it
     * runs, leaving out {@code excluded} (a topology being placed anew), or none if null.
     */
    public static List<PlacementCandidate> candidates(Collection<RegisteredHost> hosts,
                                                      Collection<DeployedTopology> topologies,
                                                      @Nullable TopologyId excluded) {
        Map<HostId, Integer> load = load(hosts.stream().map(RegisteredHost::id).toList(), topologies, excluded);
        return hosts.stream().map(host -> new PlacementCandidate(host.id(), host.kind(), load.get(host.id()))).toList();
    }

    /**
     * How many tasks of the topologies run on each of {@code hosts} (0 for a host that runs none), leaving out
     * {@code excluded} (a topology being placed anew), or none if null.
     */
    public static Map<HostId, Integer> load(Collection<HostId> hosts, Collection<DeployedTopology> topologies,
                                            @Nullable TopologyId excluded) {
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
