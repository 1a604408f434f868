package io.steadfast.protocol.router;

/** HTTP headers through which router replicas, hosts and clients agree on the leading router. */
public final class RouterHeaders {

    /**
     * The leadership epoch of the router that sends a call to a host, or that answers one: a host refuses calls and
     * ignores answers of a lower epoch than the highest it has seen, so a deposed leader that still runs cannot act.
     */
    public static final String EPOCH = "Steadfast-Router-Epoch";
    /** On a standby router's 503: the URL of the router that leads. */
    public static final String LEADER = "Steadfast-Router-Leader";
    /** The {@code reason} of a standby router's 503 problem detail. */
    public static final String NOT_LEADER = "NOT_LEADER";
    /** The {@code reason} of a host's 409 to a call from a router of a superseded epoch. */
    public static final String STALE_ROUTER = "STALE_ROUTER";

    private RouterHeaders() {
    }
}
