package io.steadfast.router.recovery;

/**
 * Where a recovery is: RECOVERING until the output caught up (RECOVERED), FAILED with a reason (retried), or
 * ABANDONED with a reason when it can never finish: the router restarted before it had redeployed, a later recovery
 * of the same topology took over, or the topology was cancelled.
 */
public enum RecoveryStatus {
    RECOVERING, RECOVERED, FAILED, ABANDONED
}
