package io.steadfast.host.execution;

import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Plans of topologies this host runs no task of, fetched ahead from the router, so that a request to take over lost
 * tasks of one (a standby host's usual work) need not carry the plan: reading a real job's plan (tens of KB of
 * JSON) is a large part of a recovery on busy cores. Kept in step with the router's view that
 * answers every heartbeat ({@link #update}): a plan is fetched when a topology appears or its epoch changes, and
 * dropped when the topology is gone or runs here (the host's runtime holds its plan then). Thread-safe.
 */
public final class PreparedPlans {

    /** Where plans come from: the router. */
    @FunctionalInterface
    public interface PlanSource {

        /** The topology's current plan; empty if the topology is unknown. */
        Optional<ExecutionPlan> plan(TopologyId topology);
    }

    private final Map<TopologyId, ExecutionPlan> plans = new ConcurrentHashMap<>();

    /** The prepared plan of {@code topology}, at whatever epoch. */
    public Optional<ExecutionPlan> of(TopologyId topology) {
        return Optional.ofNullable(plans.get(topology));
    }

    /** The prepared plan of {@code topology}, if it is at {@code epoch}. */
    public Optional<ExecutionPlan> at(TopologyId topology, int epoch) {
        return Optional.ofNullable(plans.get(topology)).filter(plan -> plan.epoch() == epoch);
    }

    /**
     * Brings the prepared plans in line with the router's view: fetches those missing or at another epoch, for the
     * topologies that do not run here, and drops the rest.
     *
     * @param runsHere whether this host runs tasks of a topology
     * @return the topologies whose plan was fetched
     * @throws RuntimeException what {@code source} threw; the plans fetched before it are kept
     */
    public List<TopologyId> update(HostAssignment assignment, Predicate<TopologyId> runsHere, PlanSource source) {
        Set<TopologyId> known = assignment.deployments().stream().map(HostDeployment::topology)
                .collect(Collectors.toSet());
        plans.keySet().removeIf(topology -> !known.contains(topology) || runsHere.test(topology));
        List<TopologyId> fetched = new ArrayList<>();
        for (HostDeployment deployment : assignment.deployments()) {
            TopologyId topology = deployment.topology();
            if (runsHere.test(topology) || at(topology, deployment.epoch()).isPresent()) {
                continue;
            }
            Optional<ExecutionPlan> plan = source.plan(topology).filter(p -> p.epoch() == deployment.epoch());
            if (plan.isPresent()) {
                plans.put(topology, plan.get());
                fetched.add(topology);
            } else {
                plans.remove(topology); // gone or moved on meanwhile: the next heartbeat's view says which
            }
        }
        return fetched;
    }

    /** The topologies with a prepared plan, for tests and logs. */
    public Set<TopologyId> topologies() {
        return Set.copyOf(plans.keySet());
    }
}
