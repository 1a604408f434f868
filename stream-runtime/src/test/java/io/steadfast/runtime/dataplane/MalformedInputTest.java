package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.ExactlyOnce.assertSeqsAreOneTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Garbage and damaged messages from a raw DEALER are dropped and counted; the data plane keeps delivering valid
 * channels.
 */
@Timeout(30)
class MalformedInputTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("malformed"), 0);
    private static final ChannelId NOT_OPEN = new ChannelId(new TopologyId("malformed"), 99);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults().withMaxFrameBytes(64 * 1024);

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void dropsAndCountsMalformedOversizedAndUnknownChannelMessagesAndKeepsWorking() {
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        FrameCodec codec = new FrameCodec(CONFIG.maxFrameBytes());
        ZMQ.Socket raw = TestFrames.rawDealer(resources.add(new ZContext()), receiver.endpoint());

        raw.send("not a data plane frame".getBytes(StandardCharsets.UTF_8));               // bad magic
        raw.send(new byte[] {0x53, 0x46});                                                  // truncated
        byte[] badVersion = codec.encodeSync(CHANNEL, 0, 1);
        badVersion[4] = 4;                                                                  // a version 4 peer
        raw.send(badVersion);
        byte[] five = new byte[5];                                       // a length mismatch its sender sealed
        raw.send(TestFrames.resealed(codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[10]), five), ZMQ.SNDMORE);
        raw.send(five);
        raw.send(codec.encodeSync(CHANNEL, 0, 1), ZMQ.SNDMORE);  // a SYNC, then two parts that are no messages
        raw.send(new byte[1], ZMQ.SNDMORE);
        raw.send(new byte[1]);
        raw.send(codec.encodePosition(MessageType.ACK, CHANNEL, 0, 1, 1, 1));              // wrong direction
        byte[] oversized = new byte[CONFIG.maxFrameBytes() + 1];
        raw.send(codec.encodeDataHeader(CHANNEL, 0, 1, 1, oversized), ZMQ.SNDMORE);
        raw.send(oversized);                                                                // oversized
        byte[] three = new byte[3];
        byte[] damaged = codec.encodeDataHeader(CHANNEL, 0, 1, 1, three);
        damaged[damaged.length - 5] ^= 0x10;                                                // damaged on its way
        raw.send(damaged, ZMQ.SNDMORE);
        raw.send(three);
        raw.send(codec.encodeDataHeader(NOT_OPEN, 0, 1, 1, three), ZMQ.SNDMORE);           // unknown channel
        raw.send(three);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(receiver.metrics().malformedFramesDropped()).isEqualTo(7);
            assertThat(receiver.metrics().oversizedFramesDropped()).isEqualTo(1);
            assertThat(receiver.metrics().corruptFramesDropped()).isEqualTo(1);
            assertThat(receiver.metrics().unknownChannelFramesDropped()).as("the frame for a channel not open")
                    .isEqualTo(1);
            // the SYNC before the two stray parts is kept until its channel opens (later), not dropped
            assertThat(receiver.metrics().earlySyncsKept()).isEqualTo(1);
        });

        DataPlane sender = resources.add(DataPlane.start(CONFIG));
        RecordingConsumer consumer = resources.add(new RecordingConsumer("after-garbage"));
        receiver.openInbound(CHANNEL, 0, consumer);
        resources.add(
                TestProducer.start(sender.openOutbound(CHANNEL, receiver.endpoint(), 1), 500, "after-garbage", 20_000));

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.lastSeq() == 20_000);
        assertSeqsAreOneTo(consumer, 20_000);
    }
}
