package io.steadfast.router.topology;

import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** A {@link TopologyRepository} in a concurrent map; lost when the router restarts. */
public final class InMemoryTopologyRepository implements TopologyRepository {

    private final ConcurrentMap<TopologyId, DeployedTopology> topologies = new ConcurrentSkipListMap<>();

    @Override
    public boolean add(DeployedTopology topology) {
        return topologies.putIfAbsent(topology.id(), topology) == null;
    }

    @Override
    public Optional<DeployedTopology> find(TopologyId id) {
        return Optional.ofNullable(topologies.get(id));
    }

    @Override
    public List<DeployedTopology> all() {
        return List.copyOf(topologies.values());
    }

    @Override
    public boolean replace(DeployedTopology topology) {
        return topologies.replace(topology.id(), topology) != null;
    }

    @Override
    public boolean remove(TopologyId id) {
        return topologies.remove(id) != null;
    }
}
