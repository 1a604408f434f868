package io.steadfast.runtime.host;

import io.steadfast.runtime.topology.TopologyId;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The router's view of what one host should run, sent in answer to every heartbeat: every topology the router
 * knows, each with its current epoch and the tasks of it placed on that host (often none). A host reconciles
 * against it and cancels what the router has moved elsewhere, e.g. while the host was declared dead. Stateless
 * on purpose: the router computes it from its stored topologies on each heartbeat, so it is as right after a
 * router restart as before, and a lost answer is repaired by the next one. Immutable; JSON-ready.
 *
 * @param deployments one entry per topology the router knows, sorted by topology
 */
public record HostAssignment(List<HostDeployment> deployments) {

    public HostAssignment {
        deployments = deployments == null ? List.of()
                : deployments.stream().sorted(Comparator.comparing(HostDeployment::topology)).toList();
    }

    /** The router's current deployment of a topology; empty if the router does not know the topology. */
    public Optional<HostDeployment> of(TopologyId topology) {
        return deployments.stream().filter(d -> d.topology().equals(topology)).findFirst();
    }
}
