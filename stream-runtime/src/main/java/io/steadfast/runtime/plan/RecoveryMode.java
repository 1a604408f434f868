package io.steadfast.runtime.plan;

/** How a topology recovers when one of its tasks is lost. */
public enum RecoveryMode {

    /**
     * Only the lost tasks restore from the latest completed checkpoint; their upstream tasks replay their
     * output logs to them, they follow their logged decisions, and every other task keeps running.
     * Senders keep their output since the last completed checkpoint for that.
     */
    LOCAL,

    /** Every task of the topology restores from the latest completed checkpoint on fresh channels. */
    GLOBAL,

    /**
     * LOCAL or GLOBAL, whichever the router's delay model predicts to recover sooner at the moment of the failure
     * (LOCAL when it cannot tell). Senders keep their output as for LOCAL, so that either can be chosen.
     */
    AUTO;

    /** Whether senders keep their output since the last completed checkpoint, for a LOCAL recovery to replay. */
    public boolean logsOutput() {
        return this != GLOBAL;
    }
}
