package io.steadfast.runtime.dataplane;

/** How long a sender keeps the frames of an outbound channel. */
public enum Retention {

    /** Until the receiver reports them consumed: enough to survive a reconnect or a receiver restart. */
    UNTIL_CONSUMED,

    /**
     * Until {@link OutboundChannel#truncateLog} says they are no longer needed (a checkpoint completed that
     * covers them), so that a receiver restored from that checkpoint elsewhere can be sent them again: the
     * output log of local recovery.
     */
    UNTIL_TRUNCATED
}
