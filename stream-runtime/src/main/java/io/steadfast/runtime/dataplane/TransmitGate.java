package io.steadfast.runtime.dataplane;

/**
 * Whether the data plane may put anything on the wire now. A host whose lease with the router has lapsed must not:
 * the router may be moving its tasks, and what they send would compete with their next incarnation. Asked by the IO
 * thread before every ZeroMQ message it sends, so it must be cheap (a volatile read and a clock read) and never block.
 * While it says no, what would have been sent is dropped and counted ({@link DataPlaneMetrics#withheldMessages()});
 * the resync protocol recovers it should the gate open again for the same channels.
 */
@FunctionalInterface
public interface TransmitGate {

    /** Always open: a data plane that answers to no lease (tests, benchmarks, a host's rehearsal peer). */
    TransmitGate OPEN = () -> true;

    boolean mayTransmit();
}
