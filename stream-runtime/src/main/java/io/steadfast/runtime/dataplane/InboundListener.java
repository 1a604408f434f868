package io.steadfast.runtime.dataplane;

/**
 * Receives the frames of one inbound channel, in sequence order, each event exactly once.
 *
 * <p><b>Threading:</b> called on the data plane's IO thread, never concurrently for one data plane. It must not
 * block: hand the frame to the consuming task's mailbox and return.
 */
@FunctionalInterface
public interface InboundListener {

    void onFrame(InboundFrame frame);
}
