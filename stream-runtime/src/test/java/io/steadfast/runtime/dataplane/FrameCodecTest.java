package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.dataplane.MalformedFrameException.Reason;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class FrameCodecTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("fraud-scoring"), 7);
    private final FrameCodec codec = new FrameCodec(1024);

    @Test
    void roundTripsData() throws Exception {
        byte[] payload = {1, 2, 3, 4, 5};
        byte[] header = codec.encodeDataHeader(CHANNEL, 1001, 250, payload.length);

        WireMessage message = codec.decode(header, payload);

        assertThat(message).isInstanceOfSatisfying(WireMessage.Data.class, data -> {
            assertThat(data.channel()).isEqualTo(CHANNEL);
            assertThat(data.firstSeq()).isEqualTo(1001);
            assertThat(data.eventCount()).isEqualTo(250);
            assertThat(data.lastSeq()).isEqualTo(1250);
            assertThat(data.payload()).isSameAs(payload);
        });
    }

    @Test
    void roundTripsABundleWithWhereEachOfItsFramesEnds() throws Exception {
        byte[] payload = {1, 2, 3, 4, 5, 6};
        byte[] header = codec.encodeBundleHeader(CHANNEL, 1001, 9, new int[] {2, 3, 1});

        WireMessage message = codec.decode(header, payload);

        assertThat(FrameCodec.announcesPayload(header)).isTrue();
        assertThat(message).isInstanceOfSatisfying(WireMessage.Data.class, data -> {
            assertThat(data.channel()).isEqualTo(CHANNEL);
            assertThat(data.firstSeq()).isEqualTo(1001);
            assertThat(data.lastSeq()).isEqualTo(1009);
            assertThat(data.parts()).isEqualTo(3);
            assertThat(data.partEnds()).containsExactly(2, 5, 6);
            assertThat(data.payload()).isSameAs(payload);
        });
        assertThat(((WireMessage.Data) codec.decode(codec.encodeDataHeader(CHANNEL, 1, 1, 6), payload)).parts())
                .as("a DATA frame is one part").isEqualTo(1);
        WireMessage withEmptyFrames = codec.decode(codec.encodeBundleHeader(CHANNEL, 7, 2, new int[] {0, 6, 0}),
                payload);
        assertThat(((WireMessage.Data) withEmptyFrames).partEnds()).as("frames of an empty payload, as DATA allows")
                .containsExactly(0, 6, 6);
    }

    @Test
    void rejectsABundleWhosePartsDoNotAddUpOrAreOutOfRange() {
        byte[] header = codec.encodeBundleHeader(CHANNEL, 1, 4, new int[] {2, 3});
        int partsOffset = header.length - 4 - 8;
        assertRejected(header, new byte[6], Reason.LENGTH_MISMATCH);

        byte[] onePart = header.clone();
        ByteBuffer.wrap(onePart).putInt(partsOffset, 1);
        assertRejected(onePart, new byte[5], Reason.BAD_PART_COUNT, Reason.TRAILING_BYTES);

        byte[] tooMany = header.clone();
        ByteBuffer.wrap(tooMany).putInt(partsOffset, FrameCodec.MAX_BUNDLE_PARTS + 1);
        assertRejected(tooMany, new byte[5], Reason.BAD_PART_COUNT);

        byte[] negativePart = codec.encodeBundleHeader(CHANNEL, 1, 4, new int[] {5, 1});
        ByteBuffer.wrap(negativePart).putInt(negativePart.length - 4, -1);
        assertRejected(negativePart, new byte[6], Reason.NEGATIVE_LENGTH);

        byte[] overlong = codec.encodeBundleHeader(CHANNEL, 1, 4, new int[] {2, 3});
        ByteBuffer.wrap(overlong).putInt(overlong.length - 4, Integer.MAX_VALUE);
        assertRejected(overlong, new byte[5], Reason.LENGTH_MISMATCH);

        byte[] noEvents = codec.encodeBundleHeader(CHANNEL, 1, 0, new int[] {2, 3});
        assertRejected(noEvents, new byte[5], Reason.BAD_EVENT_COUNT);
        assertRejected(header, null, Reason.MISSING_PAYLOAD);
        for (int length = 0; length < header.length; length++) {
            assertRejected(Arrays.copyOf(header, length), new byte[5], Reason.TRUNCATED, Reason.BAD_TOPOLOGY);
        }
    }

    @Test
    void roundTripsAckAndSyncReply() throws Exception {
        for (MessageType type : new MessageType[] {MessageType.ACK, MessageType.SYNC_REPLY}) {
            WireMessage message = codec.decode(codec.encodePosition(type, CHANNEL, 5000, 4000, 32), null);

            assertThat(message).isEqualTo(new WireMessage.Position(type, CHANNEL, 5000, 4000, 32));
        }
    }

    @Test
    void roundTripsSync() throws Exception {
        assertThat(codec.decode(codec.encodeSync(CHANNEL, 42), null)).isEqualTo(new WireMessage.Sync(CHANNEL, 42));
    }

    @Test
    void carriesTheChannelEpochSoThatDeploymentsNeverMix() throws Exception {
        ChannelId third = CHANNEL.withEpoch(3);

        assertThat(codec.decode(codec.encodeSync(third, 42), null)).isEqualTo(new WireMessage.Sync(third, 42));
        assertThat(codec.decode(codec.encodeSync(third, 42), null)).isNotEqualTo(new WireMessage.Sync(CHANNEL, 42));
    }

    @Test
    void rejectsANegativeEpoch() {
        byte[] header = codec.encodeSync(CHANNEL.withEpoch(1), 1);
        int epochOffset = header.length - 8 - 4;
        header[epochOffset] = (byte) 0xFF;
        assertRejected(header, null, Reason.BAD_CHANNEL_INDEX);
    }

    @Test
    void acceptsEmptyPayloadAndPayloadOfExactlyTheLimit() throws Exception {
        assertThat(codec.decode(codec.encodeDataHeader(CHANNEL, 1, 1, 0), new byte[0])).isNotNull();
        assertThat(codec.decode(codec.encodeDataHeader(CHANNEL, 1, 1, 1024), new byte[1024])).isNotNull();
    }

    @Test
    void rejectsEveryTruncationOfEveryMessageType() {
        byte[][] headers = {
            codec.encodeDataHeader(CHANNEL, 1, 1, 3),
            codec.encodePosition(MessageType.ACK, CHANNEL, 1, 1, 1),
            codec.encodePosition(MessageType.SYNC_REPLY, CHANNEL, 1, 1, 1),
            codec.encodeSync(CHANNEL, 1)};
        for (byte[] header : headers) {
            for (int length = 0; length < header.length; length++) {
                byte[] truncated = Arrays.copyOf(header, length);
                assertRejected(truncated, new byte[3], Reason.TRUNCATED, Reason.BAD_TOPOLOGY);
            }
        }
        // cutting inside the topology id must be TRUNCATED, not a misread id
        assertRejected(Arrays.copyOf(headers[0], 10), new byte[3], Reason.TRUNCATED);
    }

    @Test
    void rejectsBadMagic() {
        byte[] header = codec.encodeSync(CHANNEL, 1);
        header[0] = 'X';
        assertRejected(header, null, Reason.BAD_MAGIC);
    }

    @Test
    void rejectsBadVersion() {
        byte[] header = codec.encodeSync(CHANNEL, 1);
        header[4] = (byte) (FrameCodec.VERSION + 1);
        assertRejected(header, null, Reason.BAD_VERSION);
    }

    @Test
    void rejectsUnknownType() {
        byte[] header = codec.encodeSync(CHANNEL, 1);
        header[5] = 99;
        assertRejected(header, null, Reason.UNKNOWN_TYPE);
    }

    @Test
    void tellsFromAHeaderWhetherAPayloadPartFollows() {
        assertThat(FrameCodec.announcesPayload(codec.encodeDataHeader(CHANNEL, 1, 1, 3))).isTrue();
        assertThat(FrameCodec.announcesPayload(codec.encodeSync(CHANNEL, 1))).isFalse();
        assertThat(FrameCodec.announcesPayload(codec.encodePosition(MessageType.ACK, CHANNEL, 1, 1, 1))).isFalse();
        assertThat(FrameCodec.announcesPayload(new byte[] {0x53, 0x46, 0x44, 0x50, 3})).isFalse();
        assertThat(FrameCodec.announcesPayload("not a data plane frame".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(FrameCodec.announcesPayload(null)).isFalse();
    }

    @Test
    void rejectsInvalidTopologyIdAndLength() throws MalformedFrameException {
        codec.decode(codec.encodeSync(CHANNEL, 1), null); // a valid id seen first is remembered, and changes nothing
        byte[] header = codec.encodeSync(CHANNEL, 1);
        header[7] = 'X'; // upper case is not a valid topology id
        assertRejected(header, null, Reason.BAD_TOPOLOGY);

        byte[] zeroLength = codec.encodeSync(CHANNEL, 1);
        zeroLength[6] = 0;
        assertRejected(zeroLength, null, Reason.BAD_TOPOLOGY);

        byte[] tooLong = codec.encodeSync(CHANNEL, 1);
        tooLong[6] = (byte) 200;
        assertRejected(tooLong, null, Reason.BAD_TOPOLOGY);
    }

    @Test
    void rejectsNegativeChannelIndex() {
        byte[] header = codec.encodeSync(CHANNEL, 1);
        ByteBuffer.wrap(header).putInt(topologyEnd(), -1);
        assertRejected(header, null, Reason.BAD_CHANNEL_INDEX);
    }

    @Test
    void rejectsNegativePayloadLength() {
        byte[] header = codec.encodeDataHeader(CHANNEL, 1, 1, 3);
        ByteBuffer.wrap(header).putInt(header.length - 4, -3);
        assertRejected(header, new byte[3], Reason.NEGATIVE_LENGTH);
    }

    @Test
    void rejectsPayloadLengthThatDisagreesWithThePayloadPart() {
        byte[] header = codec.encodeDataHeader(CHANNEL, 1, 1, 3);
        assertRejected(header, new byte[2], Reason.LENGTH_MISMATCH);
        assertRejected(header, new byte[4], Reason.LENGTH_MISMATCH);
    }

    @Test
    void rejectsOversizedPayloadByHeaderOrByActualSize() {
        assertRejected(codec.encodeDataHeader(CHANNEL, 1, 1, 1025), new byte[1025], Reason.OVERSIZED);
        assertRejected(codec.encodeDataHeader(CHANNEL, 1, 1, Integer.MAX_VALUE), new byte[3], Reason.OVERSIZED);
        assertRejected(codec.encodeDataHeader(CHANNEL, 1, 1, 3), new byte[2000], Reason.OVERSIZED);
    }

    @Test
    void rejectsDataWithoutPayloadAndControlMessagesWithPayload() {
        assertRejected(codec.encodeDataHeader(CHANNEL, 1, 1, 3), null, Reason.MISSING_PAYLOAD);
        assertRejected(codec.encodeSync(CHANNEL, 1), new byte[1], Reason.UNEXPECTED_PAYLOAD);
        assertRejected(codec.encodePosition(MessageType.ACK, CHANNEL, 1, 1, 1), new byte[1],
                Reason.UNEXPECTED_PAYLOAD);
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] header = codec.encodeSync(CHANNEL, 1);
        assertRejected(Arrays.copyOf(header, header.length + 1), null, Reason.TRAILING_BYTES);
    }

    @Test
    void rejectsImpossibleSequenceFields() {
        assertRejected(codec.encodeDataHeader(CHANNEL, 0, 1, 0), new byte[0], Reason.BAD_SEQUENCE);
        assertRejected(codec.encodeDataHeader(CHANNEL, Long.MAX_VALUE - 1, 5, 0), new byte[0], Reason.BAD_SEQUENCE);
        assertRejected(codec.encodeDataHeader(CHANNEL, 1, -5, 0), new byte[0], Reason.BAD_EVENT_COUNT);
        assertRejected(codec.encodePosition(MessageType.ACK, CHANNEL, 10, 11, 1), null, Reason.BAD_SEQUENCE);
        assertRejected(codec.encodePosition(MessageType.ACK, CHANNEL, -1, -1, 1), null, Reason.BAD_SEQUENCE);
        assertRejected(codec.encodePosition(MessageType.SYNC_REPLY, CHANNEL, 1, 1, 0), null, Reason.BAD_CREDIT);
        assertRejected(codec.encodeSync(CHANNEL, 0), null, Reason.BAD_SEQUENCE);
    }

    @Test
    void rejectsGarbage() {
        assertRejected("hello world, this is not a frame".getBytes(StandardCharsets.UTF_8), null, Reason.BAD_MAGIC);
        assertRejected(new byte[0], null, Reason.TRUNCATED);
    }

    private static int topologyEnd() {
        return 7 + CHANNEL.topology().value().length();
    }

    private void assertRejected(byte[] header, byte[] payload, Reason... acceptable) {
        assertThatThrownBy(() -> codec.decode(header, payload))
                .as("decoding %s", Arrays.toString(header))
                .isInstanceOfSatisfying(MalformedFrameException.class,
                        e -> assertThat(e.reason()).isIn((Object[]) acceptable));
    }
}
