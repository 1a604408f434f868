package io.steadfast.router.topology;

import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Optional;

/**
 * The deployed topologies: in memory ({@link InMemoryTopologyRepository}), or in memory and written behind to
 * MongoDB ({@link WriteBehindTopologyRepository}). Implementations are thread-safe.
 */
public interface TopologyRepository {

    /** Stores a topology; returns false (and stores nothing) if one with the same id exists. */
    boolean add(DeployedTopology topology);

    Optional<DeployedTopology> find(TopologyId id);

    /** Every topology, sorted by id. */
    List<DeployedTopology> all();

    /** Replaces a stored topology (e.g. after a recovery redeployed it); returns false if there was none. */
    boolean replace(DeployedTopology topology);

    /**
     * As {@link #replace}, but returns once the topology is replaced in memory, without waiting for a durable copy:
     * for a local recovery's new placement, which hosts must see at once (a router restarted before it was written
     * finds the lost tasks on their dead host and recovers them afresh).
     */
    default boolean replaceWithoutWaiting(DeployedTopology topology) {
        return replace(topology);
    }

    /** Removes a topology; returns false if there was none. */
    boolean remove(TopologyId id);
}
