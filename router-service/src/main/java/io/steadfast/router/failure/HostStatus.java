package io.steadfast.router.failure;

/** Whether a host is considered alive, as decided by the {@link HeartbeatFailureDetector}. */
public enum HostStatus {
    /** Heartbeats arrive within the timeout. */
    LIVE,
    /** No heartbeat for longer than the timeout. */
    DEAD
}
