package io.steadfast.router.failure;

/** What made the router declare a host DEAD. */
public enum DetectionCause {
    /** No heartbeat for longer than {@code steadfast.router.heartbeat-timeout}. */
    HEARTBEAT_TIMEOUT,
    /**
     * A peer host reported that its data-plane connection to the host dropped, and the host then neither answered
     * its health probe nor sent a heartbeat for {@code steadfast.router.suspicion.min-silence}.
     */
    DATA_PLANE_DISCONNECT,
    /**
     * The host registered again with a new session while its earlier one was LIVE: it had fenced itself (its lease
     * lapsed) or its process restarted, so the tasks of the earlier session are gone.
     */
    HOST_REJOINED,
    /** A task failed (threw) on a host that stays LIVE: the host's tasks of that topology restart in place. */
    TASK_FAILED,
    /**
     * Tasks on a host that stays LIVE did not acknowledge several checkpoints in a row (wedged): they restart in place.
     */
    CHECKPOINTS_EXPIRED,
    /** A recovery's tasks did not catch up in time: the recovery is escalated (LOCAL to GLOBAL). */
    CATCH_UP_TIMEOUT,
    /** The host's pod (the incarnation that registered) was deleted, or is being deleted (Kubernetes scheduling). */
    POD_DELETED,
    /** The host's pod was evicted by its node (Kubernetes scheduling). */
    POD_EVICTED,
    /** The host's pod turned not ready after it had been ready (Kubernetes scheduling). */
    POD_NOT_READY
}
