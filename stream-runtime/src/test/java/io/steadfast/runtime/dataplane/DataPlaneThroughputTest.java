package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A quick throughput check (printed, not asserted): 1000-event frames of 40 bytes per event between two data
 * planes in one JVM, consumer on its own thread. Exactness is still asserted.
 */
@Timeout(120)
class DataPlaneThroughputTest {

    @Test
    void measuresEventsPerSecondWithThousandEventFrames() {
        long events = 10_000_000;
        ChannelId id = new ChannelId(new TopologyId("throughput"), 0);
        try (DataPlane sender = DataPlane.start(DataPlaneConfig.defaults());
                DataPlane receiver = DataPlane.start(DataPlaneConfig.defaults());
                RecordingConsumer consumer = new RecordingConsumer("throughput", false)) {
            receiver.openInbound(id, 0, consumer);
            OutboundChannel channel = sender.openOutbound(id, receiver.endpoint(), 1);
            await().atMost(Duration.ofSeconds(10)).until(channel::hasCredit);

            long start = System.nanoTime();
            try (TestProducer producer = TestProducer.start(channel, 1000, "throughput", events)) {
                await().atMost(Duration.ofSeconds(100)).pollInterval(Duration.ofMillis(5))
                        .until(() -> consumer.lastSeq() == events);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("data plane throughput: %,d events (%,d MB) in %.2f s = %,.0f events/s, %.0f MB/s; %s%n",
                    events, events * TestProducer.EVENT_BYTES / 1_000_000, seconds, events / seconds,
                    events * TestProducer.EVENT_BYTES / 1e6 / seconds, sender.metrics());
            assertThat(consumer.count()).isEqualTo(events);
            assertThat(consumer.errors()).isEmpty();
        }
    }
}
