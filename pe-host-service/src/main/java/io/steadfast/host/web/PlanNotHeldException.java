package io.steadfast.host.web;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;

/** A recovery request left out the plan, and this host does not hold it at the epoch the request names. */
final class PlanNotHeldException extends RuntimeException {

    /** The {@code reason} of the 409 problem detail, for callers to resend with the plan. */
    static final String REASON = "PLAN_NOT_HELD";

    private final TopologyId topology;
    private final int epoch;

    PlanNotHeldException(HostId host, TopologyId topology, int epoch) {
        super("Host " + host + " does not hold the plan of topology '" + topology + "' at epoch " + epoch
                + " (it runs no task of it at that epoch and has not fetched it from the router yet); send the plan");
        this.topology = topology;
        this.epoch = epoch;
    }

    TopologyId topology() {
        return topology;
    }

    int epoch() {
        return epoch;
    }
}
