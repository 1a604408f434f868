package io.steadfast.host.health;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.runtime.dataplane.DataPlaneMetrics;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Health contributor {@code dataPlane}: UP with the bound endpoint and frame counters, DOWN once closed or while its
 * IO thread is stuck ({@link DataPlaneStallWatch}). Among the
 * counters, messages dropped as damaged on the wire (checksum) and as sent by a superseded task incarnation.
 */
@Component
public class DataPlaneHealthIndicator implements HealthIndicator {

    private final ProcessingNode node;
    private final DataPlaneStallWatch stallWatch;

    public DataPlaneHealthIndicator(ProcessingNode node, DataPlaneStallWatch stallWatch) {
        this.node = node;
        this.stallWatch = stallWatch;
    }

    @Override
    public Health health() {
        Optional<String> stall = stallWatch.stall();
        Health.Builder health = node.isClosed() ? Health.down().withDetail("reason", "the data plane is closed")
                : stall.isPresent() ? Health.down().withDetail("reason", stall.get()) : Health.up();
        DataPlaneMetrics metrics = node.dataPlaneMetrics();
        return health.withDetail("endpoint", node.dataEndpoint())
                .withDetail("framesSent", metrics.framesSent())
                .withDetail("framesResent", metrics.framesResent())
                .withDetail("bundlesSent", metrics.bundlesSent())
                .withDetail("framesReceived", metrics.framesReceived())
                .withDetail("malformedFramesDropped", metrics.malformedFramesDropped())
                .withDetail("corruptFramesDropped", metrics.corruptFramesDropped())
                .withDetail("fencedMessagesDropped", metrics.fencedMessagesDropped())
                .withDetail("withheldMessages", metrics.withheldMessages())
                .withDetail("retainedFrames", metrics.retainedFrames())
                .build();
    }
}
