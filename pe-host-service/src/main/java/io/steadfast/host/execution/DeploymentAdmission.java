package io.steadfast.host.execution;

import io.steadfast.host.execution.DeploymentRejectedException.Reason;
import io.steadfast.protocol.problem.FieldError;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.ConfigProblem;
import io.steadfast.runtime.topology.TopologyId;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Checks, before anything starts, that this host can run a deployment's or a recovery's tasks: each task placed here
 * has a known type and a config that binds, and its tasks and channels fit the {@link HostLimits} beside what runs
 * here already.
 */
final class DeploymentAdmission {

    private final HostId id;
    private final OperatorRegistry registry;
    private final HostLimits limits;

    DeploymentAdmission(HostId id, OperatorRegistry registry, HostLimits limits) {
        this.id = id;
        this.registry = registry;
        this.limits = limits;
    }

    /**
     * What the deployment adds here, if this host has room for it beside {@code running}.
     *
     * @throws DeploymentRejectedException if it would take this host beyond its limits
     */
    HostLoad roomToDeploy(ExecutionPlan plan, TaskPlacement placement, HostLoad running) {
        Set<TaskId> here = new HashSet<>();
        for (TaskSpec task : plan.tasks()) {
            if (id.equals(placement.hosts().get(task.id()))) {
                here.add(task.id());
            }
        }
        HostLoad adding = HostLoad.of(plan, here);
        limits.requireRoom(id, plan.topology(), running, adding);
        return adding;
    }

    /**
     * What this host runs of the topology after recovering {@code tasks}, if it has room for it beside
     * {@code running}.
     *
     * @param before what runs of the topology here now (null: nothing)
     * @throws DeploymentRejectedException if the recovery would take this host beyond its limits
     */
    HostLoad roomToRecover(ExecutionPlan plan, Set<TaskId> tasks, @Nullable LocalDeployment before, HostLoad running) {
        Set<TaskId> after = new HashSet<>(tasks);
        HostLoad runningOfIt = HostLoad.NONE;
        if (before != null) {
            after.addAll(before.tasks());
            runningOfIt = before.load();
        }
        HostLoad load = HostLoad.of(plan, after);
        limits.requireRoom(id, plan.topology(), running, load.minus(runningOfIt));
        return load;
    }

    /**
     * What keeps the tasks of the plan placed here from running here, by operator (its tasks share type and config,
     * so each problem is named once); empty if nothing does.
     */
    List<FieldError> problemsOf(ExecutionPlan plan, TaskPlacement placement) {
        Set<FieldError> problems = new LinkedHashSet<>();
        for (TaskSpec task : plan.tasks()) {
            String operator = task.id().operator().value();
            if (!placement.hosts().containsKey(task.id())) {
                problems.add(new FieldError("placement", operator, "task " + task.id() + " is not placed on any"
                        + " host; give every task of the plan a host in placement.hosts"));
                continue;
            }
            if (!id.equals(placement.hostOf(task.id()))) {
                continue;
            }
            if (registry.roleOf(task.type()).isEmpty()) {
                problems.add(new FieldError("type", operator, "type '" + task.type()
                        + "' is unknown on host " + id + "; known types: " + String.join(", ", registry.typeNames())
                        + ". Put the operator's jar on this host's class path"));
                continue;
            }
            for (ConfigProblem problem : registry.checkConfig(task.type(), task.config())) {
                String field = problem.field().isEmpty() ? "config" : "config." + problem.field();
                problems.add(new FieldError(field, operator, problem.message()));
            }
        }
        return List.copyOf(problems);
    }

    DeploymentRejectedException invalid(TopologyId topology, List<FieldError> problems) {
        return new DeploymentRejectedException(topology, Reason.INVALID_TASKS, "Topology '" + topology
                + "' cannot run on host " + id + ":", problems);
    }
}
