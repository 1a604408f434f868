package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Peer disconnect hints from the DEALER's socket monitor, over real sockets on loopback. */
@Timeout(60)
class PeerDisconnectTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("hints"), 0);

    private final AutoCloseableList resources = new AutoCloseableList();
    private final List<String> disconnected = new CopyOnWriteArrayList<>();
    private final List<String> listenerThreads = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    private DataPlane senderTellingTheTest() {
        DataPlane sender = resources.add(DataPlane.start(DataPlaneConfig.defaults()));
        sender.addPeerListener(endpoint -> {
            listenerThreads.add(Thread.currentThread().getName());
            disconnected.add(endpoint);
        });
        return sender;
    }

    /** Sends event 1 from {@code sender} to {@code receiver} and waits until it arrived: the link is up. */
    private OutboundChannel connect(DataPlane sender, DataPlane receiver, RecordingConsumer consumer) {
        receiver.openInbound(CHANNEL, 0, consumer);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1);
        channel.send(event(1), 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.count() >= 1);
        return channel;
    }

    private static byte[] event(long seq) {
        return ByteBuffer.allocate(TestProducer.EVENT_BYTES).putLong(0, seq).array();
    }

    @Test
    void closingAPeerTellsTheListenerOnceWithThatPeersEndpoint() {
        DataPlane sender = senderTellingTheTest();
        DataPlane receiver = DataPlane.start(DataPlaneConfig.defaults());
        String receiverEndpoint = receiver.endpoint();
        connect(sender, receiver, resources.add(new RecordingConsumer("close", false)));
        assertThat(disconnected).as("no drop while the peer is up").isEmpty();

        receiver.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> !disconnected.isEmpty());
        assertThat(disconnected).containsExactly(receiverEndpoint);
        assertThat(listenerThreads).allSatisfy(name -> assertThat(name).startsWith("steadfast-dataplane-io-"));
        // the DEALER keeps reconnecting to the closed port: refused attempts are not drops of their own
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
                .until(() -> disconnected.size() == 1);
    }

    @Test
    void aPeerThatWasNeverReachedIsNotReportedAsDisconnected() {
        DataPlane sender = senderTellingTheTest();
        DataPlane gone = DataPlane.start(DataPlaneConfig.defaults());
        String goneEndpoint = gone.endpoint();
        gone.close();

        sender.openOutbound(CHANNEL, goneEndpoint, 1);

        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(disconnected::isEmpty);
    }

    @Test
    void aPeerRestartedOnTheSamePortIsReportedAgainWhenItDropsAgain() {
        DataPlane sender = senderTellingTheTest();
        DataPlane first = DataPlane.start(DataPlaneConfig.defaults());
        String endpoint = first.endpoint();
        RecordingConsumer consumer = resources.add(new RecordingConsumer("restart", false));
        OutboundChannel channel = connect(sender, first, consumer);
        first.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> disconnected.size() == 1);

        DataPlane second = DataPlane.start(DataPlaneConfig.defaults().withBindAddress(endpoint));
        RecordingConsumer again = resources.add(new RecordingConsumer("restart-2", false));
        second.openInbound(CHANNEL, 1, again);
        channel.send(event(2), 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> again.count() >= 1);
        second.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> disconnected.size() == 2);
        assertThat(disconnected).containsExactly(endpoint, endpoint);
    }
}
