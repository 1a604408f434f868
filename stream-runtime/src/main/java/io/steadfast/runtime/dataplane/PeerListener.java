package io.steadfast.runtime.dataplane;

/**
 * Told when the connection from this data plane to a peer data plane drops: a hint that the peer may have died
 * (its process exited, or it went silent past the ZMTP heartbeat timeout), not a verdict: a live peer can drop a
 * connection too, e.g. on a stalled handshake. The data plane reconnects and resends on its own either way.
 *
 * <p><b>Threading:</b> called on the data plane's IO thread, which owns every socket: hand the event off and
 * return at once; never block, and never call back into the data plane and wait.
 */
@FunctionalInterface
public interface PeerListener {

    /**
     * The established connection to the data plane at {@code endpoint} (as given to
     * {@link DataPlane#openOutbound}) dropped. Called once per drop; not again while reconnect attempts fail.
     */
    void onPeerDisconnected(String endpoint);
}
