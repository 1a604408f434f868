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
    GLOBAL
}
