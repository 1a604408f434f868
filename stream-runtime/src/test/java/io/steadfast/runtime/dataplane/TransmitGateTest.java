package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.ExactlyOnce.assertSeqsAreOneTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A data plane whose gate is closed (its host's lease lapsed) puts nothing on the wire; reopened, nothing is lost. */
@Timeout(60)
class TransmitGateTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("gated"), 1);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults().withResyncInterval(Duration.ofMillis(50));

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void aClosedGateWithholdsEveryMessageAndTheResyncDeliversThemOnceItOpens() {
        AtomicBoolean leaseHeld = new AtomicBoolean(false);
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        sender.gateTransmissions(leaseHeld::get);
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("gated"));
        receiver.openInbound(CHANNEL, 0, consumer);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);
        resources.add(TestProducer.start(channel, 10, "gated", 1_000));

        await().atMost(Duration.ofSeconds(10)).until(() -> sender.metrics().withheldMessages() > 5);
        assertThat(receiver.metrics().framesReceived()).as("nothing reached the wire").isZero();
        assertThat(consumer.count()).isZero();

        leaseHeld.set(true);

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == 1_000);
        assertSeqsAreOneTo(consumer, 1_000);
    }
}
