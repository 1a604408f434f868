package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.TestFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.dataplane.TestFrames.Content;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LogSegmentCodecTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("segments"), 2, 1);
    private final LogSegmentCodec codec = new LogSegmentCodec(new FrameCodec(1024));

    private final List<RetainedFrame> frames = List.of(
            frame(CHANNEL, 101, 3, new byte[] {1, 2, 3}),
            frame(CHANNEL, 104, 1, new byte[0]),
            frame(CHANNEL, 105, 10, new byte[] {9, 8, 7, 6}));

    @Test
    void roundTripsFramesWithTheirSeqsAndPayloads() {
        LogSegment segment = codec.encode(CHANNEL, 0, frames);

        assertThat(segment.channel()).isEqualTo(CHANNEL);
        assertThat(segment.firstSeq()).isEqualTo(101);
        assertThat(segment.lastSeq()).isEqualTo(114);
        assertThat(Content.of(codec.decode(segment, 0))).isEqualTo(Content.of(frames));
    }

    @Test
    void decodesFramesReadyToSendOnTheSegmentsChannelByTheSenderIncarnationThatLoadsThem() throws Exception {
        RetainedFrame decoded = codec.decode(codec.encode(CHANNEL, 0, frames), 4).get(2);

        WireMessage message = TestFrames.CODEC.decode(decoded.header, decoded.payload);

        assertThat(message).isInstanceOfSatisfying(WireMessage.Data.class, data -> {
            assertThat(data.channel()).isEqualTo(CHANNEL);
            assertThat(data.senderIncarnation()).as("a restored sender replays its predecessor's log as its own")
                    .isEqualTo(4);
            assertThat(data.firstSeq()).isEqualTo(105);
            assertThat(data.eventCount()).isEqualTo(10);
        });
    }

    @Test
    void roundTripsManyRandomFrames() {
        List<RetainedFrame> many = TestFrames.randomFrames(CHANNEL, 1, 500, 50, 1024, new Random(7));

        assertThat(Content.of(codec.decode(codec.encode(CHANNEL, 0, many), 0))).isEqualTo(Content.of(many));
    }

    @Test
    void rejectsBytesWithoutTheMagic() {
        byte[] bytes = codec.encode(CHANNEL, 0, frames).frames();
        bytes[0] = 'X';

        assertThatThrownBy(() -> codec.decode(new LogSegment(CHANNEL, 0, 101, 114, bytes), 0))
                .isInstanceOf(MalformedLogSegmentException.class)
                .hasMessageContaining("Log segment [101, 114] of channel segments~2@1")
                .hasMessageContaining("magic");
    }

    @Test
    void rejectsAnUnknownVersionNamingBothVersions() {
        byte[] bytes = codec.encode(CHANNEL, 0, frames).frames();
        bytes[4] = 9;

        assertThatThrownBy(() -> codec.decode(new LogSegment(CHANNEL, 0, 101, 114, bytes), 0))
                .isInstanceOf(MalformedLogSegmentException.class)
                .hasMessageContaining("version 9").hasMessageContaining("version 1");
    }

    @Test
    void rejectsEveryTruncation() {
        byte[] bytes = codec.encode(CHANNEL, 0, frames).frames();
        for (int length = 0; length < bytes.length; length++) {
            LogSegment truncated = new LogSegment(CHANNEL, 0, 101, 114, Arrays.copyOf(bytes, length));

            assertThatThrownBy(() -> codec.decode(truncated, 0)).as("truncated to %d bytes", length)
                    .isInstanceOf(MalformedLogSegmentException.class).hasMessageContaining("truncated");
        }
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] bytes = codec.encode(CHANNEL, 0, frames).frames();

        assertThatThrownBy(
                () -> codec.decode(new LogSegment(CHANNEL, 0, 101, 114, Arrays.copyOf(bytes, bytes.length + 2)), 0))
                .isInstanceOf(MalformedLogSegmentException.class).hasMessageContaining("2 bytes after its 3 frames");
    }

    @Test
    void rejectsFramesThatAreNotContiguous() {
        List<RetainedFrame> gap = List.of(frame(CHANNEL, 101, 3, new byte[1]), frame(CHANNEL, 105, 1, new byte[1]));
        byte[] bytes = codec.encode(CHANNEL, 0, gap).frames();

        assertThatThrownBy(() -> codec.decode(new LogSegment(CHANNEL, 0, 101, 105, bytes), 0))
                .isInstanceOf(MalformedLogSegmentException.class)
                .hasMessageContaining("frame 1 starts at seq 105, expected 104");
    }

    @Test
    void rejectsFramesThatDoNotSpanTheSegmentsRange() {
        byte[] bytes = codec.encode(CHANNEL, 0, frames).frames();

        assertThatThrownBy(() -> codec.decode(new LogSegment(CHANNEL, 0, 100, 114, bytes), 0))
                .isInstanceOf(MalformedLogSegmentException.class).hasMessageContaining("expected 100");
        assertThatThrownBy(() -> codec.decode(new LogSegment(CHANNEL, 0, 101, 120, bytes), 0))
                .isInstanceOf(MalformedLogSegmentException.class).hasMessageContaining("frames end at seq 114");
    }

    @Test
    void rejectsAFrameOfNoEvents() {
        LogSegment segment = withFirstRecordField(8, 0); // eventCount

        assertThatThrownBy(() -> codec.decode(segment, 0))
                .isInstanceOf(MalformedLogSegmentException.class).hasMessageContaining("eventCount 0");
    }

    @Test
    void rejectsAPayloadLargerThanTheDataPlaneSends() {
        LogSegment segment = withFirstRecordField(12, 4096); // payloadLength

        assertThatThrownBy(() -> codec.decode(segment, 0)).isInstanceOf(MalformedLogSegmentException.class)
                .hasMessageContaining("payload of 4096 bytes").hasMessageContaining("maxFrameBytes is 1024");
    }

    /** The test frames' segment with the int at {@code offset} of its first record replaced. */
    private LogSegment withFirstRecordField(int offset, int value) {
        LogSegment segment = codec.encode(CHANNEL, 0, frames);
        ByteBuffer.wrap(segment.frames()).putInt(9 + offset, value); // after magic, version and frame count
        return segment;
    }

    @Test
    void rejectsASegmentDeclaringNoFrames() {
        byte[] bytes = ByteBuffer.allocate(9).putInt(LogSegmentCodec.MAGIC).put(LogSegmentCodec.VERSION).putInt(0)
                .array();

        assertThatThrownBy(() -> codec.decode(new LogSegment(CHANNEL, 0, 1, 1, bytes), 0))
                .isInstanceOf(MalformedLogSegmentException.class).hasMessageContaining("declares 0 frames");
    }
}
