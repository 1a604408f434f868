package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.ExactlyOnce.assertSeqsAreOneTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** Several data plane messages travel in one ZeroMQ message, and a receiver takes every one of them. */
@Timeout(60)
class WireBatchTest {

    private static final TopologyId TOPOLOGY = new TopologyId("wire-batch");
    private static final ChannelId FIRST = new ChannelId(TOPOLOGY, 1);
    private static final ChannelId SECOND = new ChannelId(TOPOLOGY, 2);
    private final FrameCodec codec = new FrameCodec(DataPlaneConfig.DEFAULT_MAX_FRAME_BYTES);
    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void aBatchGoesAsOneMessageWithEachPayloadRightAfterItsHeader() {
        ZContext context = resources.add(new ZContext());
        ZMQ.Socket out = context.createSocket(SocketType.PAIR);
        ZMQ.Socket in = context.createSocket(SocketType.PAIR);
        in.bind("inproc://wire-batch-test");
        out.connect("inproc://wire-batch-test");
        byte[] firstHeader = codec.encodeDataHeader(FIRST, 0, 1, 1, TestProducer.encode(1, 1));
        byte[] firstPayload = TestProducer.encode(1, 1);
        byte[] sync = codec.encodeSync(SECOND, 0, 1);
        byte[] secondHeader = codec.encodeDataHeader(SECOND, 0, 1, 2, TestProducer.encode(1, 2));
        byte[] secondPayload = TestProducer.encode(1, 2);

        WireBatch batch = new WireBatch();
        assertThat(batch.add(firstHeader, firstPayload)).isFalse();
        assertThat(batch.add(sync, null)).isFalse();
        assertThat(batch.add(secondHeader, secondPayload)).isFalse();
        assertThat(batch.sendOn(out, null, TransmitGate.OPEN, new DataPlaneMetrics())).isTrue();
        assertThat(batch.isEmpty()).isTrue();

        List<byte[]> parts = new ArrayList<>();
        parts.add(in.recv(0));
        while (in.hasReceiveMore()) {
            parts.add(in.recv(0));
        }
        assertThat(parts).containsExactly(firstHeader, firstPayload, sync, secondHeader, secondPayload);
        assertThat(parts).filteredOn(FrameCodec::announcesPayload).containsExactly(firstHeader, secondHeader);
        assertThat(in.recv(ZMQ.DONTWAIT)).as("nothing more: one message").isNull();
    }

    @Test
    void aBatchAsksToBeSentOnceItHoldsTheMostPartsOrBytes() {
        WireBatch byParts = new WireBatch();
        byte[] sync = codec.encodeSync(FIRST, 0, 1);
        for (int i = 1; i < WireBatch.MAX_PARTS; i++) {
            assertThat(byParts.add(sync, null)).as("part %d", i).isFalse();
        }
        assertThat(byParts.add(sync, null)).isTrue();

        WireBatch byBytes = new WireBatch();
        byte[] header = codec.encodeDataHeader(FIRST, 0, 1, 1, new byte[WireBatch.MAX_BYTES]);
        assertThat(byBytes.add(header, new byte[WireBatch.MAX_BYTES])).isTrue();
    }

    @Test
    void aReceiverTakesEveryFrameOfAMessageThatCarriesSeveralForSeveralChannels() {
        DataPlaneConfig config = DataPlaneConfig.defaults();
        DataPlane receiver = resources.add(DataPlane.start(config));
        RecordingConsumer first = resources.add(new RecordingConsumer("batch-first"));
        RecordingConsumer second = resources.add(new RecordingConsumer("batch-second"));
        receiver.openInbound(FIRST, 0, first);
        receiver.openInbound(SECOND, 0, second);
        ZMQ.Socket raw = TestFrames.rawDealer(resources.add(new ZContext()), receiver.endpoint());

        WireBatch batch = new WireBatch();
        batch.add(codec.encodeDataHeader(FIRST, 0, 1, 1, TestProducer.encode(1, 1)), TestProducer.encode(1, 1));
        batch.add(codec.encodeDataHeader(SECOND, 0, 1, 3, TestProducer.encode(1, 3)), TestProducer.encode(1, 3));
        batch.add(codec.encodeDataHeader(FIRST, 0, 2, 2, TestProducer.encode(2, 2)), TestProducer.encode(2, 2));
        batch.add(codec.encodeSync(SECOND, 0, 4), null);
        assertThat(batch.sendOn(raw, null, TransmitGate.OPEN, new DataPlaneMetrics())).isTrue();

        await().atMost(Duration.ofSeconds(20)).until(() -> first.lastSeq() == 3 && second.lastSeq() == 3);
        assertSeqsAreOneTo(first, 3);
        assertSeqsAreOneTo(second, 3);
        assertThat(receiver.metrics().framesReceived()).isEqualTo(3);
        assertThat(receiver.metrics().malformedFramesDropped()).isZero();
        // the SYNC was answered: a SYNC_REPLY comes back to the raw sender
        await().atMost(Duration.ofSeconds(5)).until(() -> receiver.metrics().acksSent() >= 1);
    }
}
