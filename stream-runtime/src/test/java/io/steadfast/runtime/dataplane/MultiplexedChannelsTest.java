package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.ExactlyOnce.assertSeqsAreOneTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Many channels share one DEALER/ROUTER pair, in both directions at once, each exact. */
@Timeout(60)
class MultiplexedChannelsTest {

    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults();
    private static final long EVENTS = 50_000;

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void deliversEveryChannelExactlyInBothDirections() {
        DataPlane left = resources.add(DataPlane.start(CONFIG));
        DataPlane right = resources.add(DataPlane.start(CONFIG));
        List<RecordingConsumer> consumers = new ArrayList<>();
        // channels 0..3 left -> right, 4..5 right -> left, two topologies
        for (int index = 0; index < 6; index++) {
            ChannelId id = new ChannelId(new TopologyId(index % 2 == 0 ? "even" : "odd"), index);
            DataPlane from = index < 4 ? left : right;
            DataPlane to = index < 4 ? right : left;
            RecordingConsumer consumer = resources.add(new RecordingConsumer("mux-" + index));
            consumers.add(consumer);
            to.openInbound(id, 0, consumer);
            resources.add(TestProducer.start(from.openOutbound(id, to.endpoint(), 1), 250 + 100 * index,
                    "mux-" + index, EVENTS));
        }

        for (RecordingConsumer consumer : consumers) {
            await().atMost(Duration.ofSeconds(30)).until(() -> consumer.lastSeq() == EVENTS);
            assertSeqsAreOneTo(consumer, EVENTS);
        }
    }

    @Test
    void aChannelToItsOwnDataPlaneWorksOverTheSocket() {
        DataPlane self = resources.add(DataPlane.start(CONFIG));
        ChannelId id = new ChannelId(new TopologyId("loop"), 0);
        RecordingConsumer consumer = resources.add(new RecordingConsumer("self"));
        self.openInbound(id, 0, consumer);
        resources.add(TestProducer.start(self.openOutbound(id, self.endpoint(), 1), 1000, "self", EVENTS));

        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.lastSeq() == EVENTS);
        assertSeqsAreOneTo(consumer, EVENTS);
    }

    @Test
    void closingTheLastChannelToAPeerWhileItsAcksArriveCausesNoIoLoopError() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        for (int round = 0; round < 5; round++) {
            ChannelId id = new ChannelId(new TopologyId("closing"), round);
            RecordingConsumer consumer = resources.add(new RecordingConsumer("closing-" + round));
            receiver.openInbound(id, 0, consumer);
            resources.add(TestProducer.start(sender.openOutbound(id, receiver.endpoint(), 1), 500, "closing-" + round,
                    5_000));
            await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == 5_000);
            sender.closeOutbound(id);
            receiver.closeInbound(id);
        }
        ChannelId after = new ChannelId(new TopologyId("closing"), 99);
        RecordingConsumer consumer = resources.add(new RecordingConsumer("after"));
        receiver.openInbound(after, 0, consumer);
        resources.add(TestProducer.start(sender.openOutbound(after, receiver.endpoint(), 1), 500, "after", EVENTS));

        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.lastSeq() == EVENTS);
        assertSeqsAreOneTo(consumer, EVENTS);
        assertThat(sender.metrics().ioLoopErrors()).isZero();
        assertThat(receiver.metrics().ioLoopErrors()).isZero();
    }

    @Test
    void afterCloseInboundReturnsTheListenerIsNeverCalledAgain() {
        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        for (int round = 0; round < 5; round++) {
            ChannelId id = new ChannelId(new TopologyId("close-inbound"), round);
            AtomicBoolean closed = new AtomicBoolean();
            AtomicLong lateFrames = new AtomicLong();
            AtomicLong delivered = new AtomicLong();
            receiver.openInbound(id, 0, frame -> {
                if (closed.get()) {
                    lateFrames.incrementAndGet();
                }
                delivered.incrementAndGet();
                frame.consumed();
            });
            TestProducer producer = resources.add(TestProducer.start(sender.openOutbound(id, receiver.endpoint(), 1),
                    100, "close-inbound-" + round));
            await().atMost(Duration.ofSeconds(20)).until(() -> delivered.get() > 50);

            receiver.closeInbound(id);
            closed.set(true);

            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> lateFrames.get() == 0);
            producer.finishNow();
            sender.closeOutbound(id);
        }
    }
}
