package io.steadfast.host.health;

import io.steadfast.host.config.HostProperties;
import io.steadfast.host.execution.ProcessingNode;
import java.time.Duration;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Whether the data plane's IO thread is stuck: no pass for longer than {@code steadfast.host.data.io-stall-timeout}.
 * Such a host heartbeats on (another thread) while none of its channels moves a frame, an ACK or a resend, so every
 * job it takes part in stops without a failure anyone sees. A stuck host therefore stops heartbeating (see
 * {@code RouterRegistration}): the router declares it dead and recovers its tasks elsewhere, and if the thread
 * comes back the router's 410 fences the host, which rejoins empty, as after any other failure.
 */
@Component
public class DataPlaneStallWatch {

    private final ProcessingNode node;
    private final Duration timeout;

    public DataPlaneStallWatch(ProcessingNode node, HostProperties properties) {
        this.node = node;
        this.timeout = properties.data().ioStallTimeout();
    }

    /** Why this host counts as failed, if its IO thread is stuck past the timeout. */
    public Optional<String> stall() {
        Duration stalled = node.dataPlaneStalledFor();
        if (stalled.compareTo(timeout) <= 0) {
            return Optional.empty();
        }
        return Optional.of("the data plane's IO thread has made no pass for " + stalled.toMillis() + " ms (more than"
                + " steadfast.host.data.io-stall-timeout = " + timeout.toMillis() + " ms): no channel of this host"
                + " moves; take a thread dump of this process (jstack) to see where the thread hangs");
    }
}
