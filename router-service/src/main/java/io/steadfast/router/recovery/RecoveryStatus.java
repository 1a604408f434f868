package io.steadfast.router.recovery;

/** Where a recovery is: RECOVERING until the output caught up (RECOVERED), or FAILED with a reason. */
public enum RecoveryStatus {
    RECOVERING, RECOVERED, FAILED
}
