package io.steadfast.router.scheduling;

import io.steadfast.runtime.plan.HostId;

/**
 * Keeps the hosts the router needs running: replaces failed ones and keeps the pool of PE hosts and voters at its
 * configured size ({@code steadfast.router.scheduling.*}), by whatever mechanism starts hosts (Kubernetes pods, local
 * processes). Recovery of a failed host's tasks is not its job: that stays with the router's recovery, onto standbys
 * that already run; a provisioner only brings the pool back to size afterwards, and may report failures it sees
 * first (a deleted pod) through the failure detector.
 *
 * <p>Life cycle: created idle; {@link #start()} when the router becomes active (it leads), {@link #stop()} when it stops
 * being active or shuts down. A stopped provisioner acts on nothing, so that a standby router never deletes, scales or
 * starts anything. {@code start} after {@code stop} resumes, reconciling from what it finds. Both are called from any
 * thread, never concurrently with each other; {@link #hostFailed} may be called from any thread at any time and
 * returns at once (the work is handed off), ignored while stopped.
 */
public interface HostProvisioner {

    /** Starts acting: reconciles what it finds with the targets, then keeps watching. */
    void start();

    /** Stops acting: no further deletions, scaling or starts, until {@link #start()} again. Idempotent. */
    void stop();

    /** Whether it is acting. */
    boolean isRunning();

    /**
     * A host the router declared DEAD (a heartbeat timeout, a confirmed data-plane report, a pod event): its
     * replacement is arranged, after the failed incarnation is gone for good where the mechanism allows it.
     */
    void hostFailed(FailedHost host);

    /**
     * Whether {@code instance} of host {@code id} is gone for good (its pod deleted): its registration is refused, so
     * that a process that still runs during its termination does not come back as a standby. Thread-safe.
     */
    default boolean isRetired(HostId id, String instance) {
        return false;
    }
}
