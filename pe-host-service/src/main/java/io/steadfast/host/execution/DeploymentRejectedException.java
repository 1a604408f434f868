package io.steadfast.host.execution;

import io.steadfast.protocol.problem.FieldError;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A deployment was refused by this host; the {@link Reason} says why, the problems say what is at fault: a field of an
 * operator's tasks (its type, its config), the placement, or for the limits the count ({@code tasks},
 * {@code channels}) passed.
 */
public class DeploymentRejectedException extends RuntimeException {

    /** Why a deployment was refused. */
    public enum Reason {
        /** The topology already runs on this host. */
        ALREADY_DEPLOYED,
        /** A task's type is unknown here, its config does not bind, or the placement is incomplete. */
        INVALID_TASKS,
        /** The tasks or channels it adds would take this host beyond its {@link HostLimits}. */
        OVER_CAPACITY
    }

    private final TopologyId topology;
    private final Reason reason;
    private final List<FieldError> problems;

    public DeploymentRejectedException(TopologyId topology, Reason reason, String message, List<FieldError> problems) {
        super(message + problems.stream().map(p -> "\n - " + (p.operator() == null ? "" : p.operator() + " ")
                + p.field() + ": " + p.message()).collect(Collectors.joining()));
        this.topology = topology;
        this.reason = reason;
        this.problems = List.copyOf(problems);
    }

    public TopologyId topology() {
        return topology;
    }

    public Reason reason() {
        return reason;
    }

    public List<FieldError> problems() {
        return problems;
    }
}
