package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.TestFrames.resealed;
import static io.steadfast.runtime.dataplane.TestFrames.sealed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.dataplane.MalformedFrameException.Reason;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class FrameCodecTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("fraud-scoring"), 7);
    /** Where the fields after the channel id begin: magic, version, type, id length, id, index, epoch. */
    private static final int INCARNATION_OFFSET = 7 + "fraud-scoring".length() + 8;
    private static final int BODY_OFFSET = INCARNATION_OFFSET + 4;
    private final FrameCodec codec = new FrameCodec(1024);

    @Test
    void roundTripsData() throws Exception {
        byte[] payload = {1, 2, 3, 4, 5};
        byte[] header = codec.encodeDataHeader(CHANNEL, 3, 1001, 250, payload);

        WireMessage message = codec.decode(header, payload);

        assertThat(message).isInstanceOfSatisfying(WireMessage.Data.class, data -> {
            assertThat(data.channel()).isEqualTo(CHANNEL);
            assertThat(data.senderIncarnation()).isEqualTo(3);
            assertThat(data.firstSeq()).isEqualTo(1001);
            assertThat(data.eventCount()).isEqualTo(250);
            assertThat(data.lastSeq()).isEqualTo(1250);
            assertThat(data.payload()).isSameAs(payload);
        });
    }

    @Test
    void laysOutADataHeaderAsDocumentedWithACrc32cOfTheHeaderBeforeItAndThePayload() {
        byte[] payload = "five!".getBytes(StandardCharsets.UTF_8);
        byte[] header = codec.encodeDataHeader(CHANNEL.withEpoch(2), 9, 1001, 250, payload);

        ByteBuffer in = ByteBuffer.wrap(header);
        assertThat(in.getInt()).isEqualTo(FrameCodec.MAGIC);
        assertThat(in.get()).isEqualTo((byte) 5);
        assertThat(in.get()).isEqualTo(MessageType.DATA.code());
        byte[] topology = new byte[in.get()];
        in.get(topology);
        assertThat(new String(topology, StandardCharsets.UTF_8)).isEqualTo("fraud-scoring");
        assertThat(in.getInt()).as("index").isEqualTo(7);
        assertThat(in.getInt()).as("epoch").isEqualTo(2);
        assertThat(in.getInt()).as("senderIncarnation").isEqualTo(9);
        assertThat(in.getLong()).as("firstSeq").isEqualTo(1001);
        assertThat(in.getInt()).as("eventCount").isEqualTo(250);
        assertThat(in.getInt()).as("payloadLength").isEqualTo(5);
        CRC32C crc = new CRC32C();
        crc.update(header, 0, in.position());
        crc.update(payload);
        assertThat(in.getInt()).as("checksum").isEqualTo((int) crc.getValue());
        assertThat(in.hasRemaining()).isFalse();
    }

    @Test
    void roundTripsABundleWithWhereEachOfItsFramesEnds() throws Exception {
        byte[] payload = {1, 2, 3, 4, 5, 6};
        byte[] header = codec.encodeBundleHeader(CHANNEL, 2, 1001, 9, new int[] {2, 3, 1}, payload);

        WireMessage message = codec.decode(header, payload);

        assertThat(FrameCodec.announcesPayload(header)).isTrue();
        assertThat(message).isInstanceOfSatisfying(WireMessage.Data.class, data -> {
            assertThat(data.channel()).isEqualTo(CHANNEL);
            assertThat(data.senderIncarnation()).isEqualTo(2);
            assertThat(data.firstSeq()).isEqualTo(1001);
            assertThat(data.lastSeq()).isEqualTo(1009);
            assertThat(data.parts()).isEqualTo(3);
            assertThat(data.partEnds()).containsExactly(2, 5, 6);
            assertThat(data.payload()).isSameAs(payload);
        });
        assertThat(((WireMessage.Data) codec.decode(codec.encodeDataHeader(CHANNEL, 0, 1, 1, payload), payload))
                .parts()).as("a DATA frame is one part").isEqualTo(1);
        WireMessage withEmptyFrames = codec.decode(
                codec.encodeBundleHeader(CHANNEL, 0, 7, 3, new int[] {0, 6, 0}, payload), payload);
        assertThat(((WireMessage.Data) withEmptyFrames).partEnds()).as("frames of an empty payload, as DATA allows")
                .containsExactly(0, 6, 6);
    }

    @Test
    void rejectsABundleWhosePartsDoNotAddUpOrAreOutOfRange() {
        byte[] five = new byte[5];
        byte[] header = codec.encodeBundleHeader(CHANNEL, 0, 1, 4, new int[] {2, 3}, five);
        int partsOffset = header.length - FrameCodec.CHECKSUM_BYTES - 4 - 8;
        assertRejected(resealed(header, new byte[6]), new byte[6], Reason.LENGTH_MISMATCH);

        byte[] onePart = header.clone();
        ByteBuffer.wrap(onePart).putInt(partsOffset, 1);
        assertRejected(resealed(onePart, five), five, Reason.BAD_PART_COUNT, Reason.TRAILING_BYTES);

        byte[] tooMany = header.clone();
        ByteBuffer.wrap(tooMany).putInt(partsOffset, FrameCodec.MAX_BUNDLE_PARTS + 1);
        assertRejected(resealed(tooMany, five), five, Reason.BAD_PART_COUNT);

        byte[] negativePart = codec.encodeBundleHeader(CHANNEL, 0, 1, 4, new int[] {5, 1}, new byte[6]);
        ByteBuffer.wrap(negativePart).putInt(partsOffset + 8, -1);
        assertRejected(resealed(negativePart, new byte[6]), new byte[6], Reason.NEGATIVE_LENGTH);

        byte[] overlong = header.clone();
        ByteBuffer.wrap(overlong).putInt(partsOffset + 8, Integer.MAX_VALUE);
        assertRejected(resealed(overlong, five), five, Reason.LENGTH_MISMATCH);

        byte[] noEvents = codec.encodeBundleHeader(CHANNEL, 0, 1, 0, new int[] {2, 3}, five);
        assertRejected(noEvents, five, Reason.BAD_EVENT_COUNT);
        assertRejected(header, null, Reason.MISSING_PAYLOAD);
        for (int length = 0; length < header.length; length++) {
            assertRejected(Arrays.copyOf(header, length), five, Reason.TRUNCATED, Reason.BAD_CHECKSUM);
        }
        for (int length = 7; length < header.length - FrameCodec.CHECKSUM_BYTES; length++) {
            assertRejected(sealed(Arrays.copyOf(header, length), five), five, Reason.TRUNCATED);
        }
    }

    @Test
    void rejectsABundleThatCountsFewerEventsThanItCarriesFramesEvenWhenSealed() {
        byte[] payload = new byte[7];
        byte[] header = codec.encodeBundleHeader(CHANNEL, 0, 1, 2, new int[] {2, 3, 2}, payload);

        assertRejected(header, payload, Reason.BAD_EVENT_COUNT);
    }

    @Test
    void roundTripsAckAndSyncReply() throws Exception {
        for (MessageType type : new MessageType[] {MessageType.ACK, MessageType.SYNC_REPLY}) {
            WireMessage message = codec.decode(codec.encodePosition(type, CHANNEL, 6, 5000, 4000, 32), null);

            assertThat(message).isEqualTo(new WireMessage.Position(type, CHANNEL, 6, 5000, 4000, 32));
        }
    }

    @Test
    void roundTripsSync() throws Exception {
        assertThat(codec.decode(codec.encodeSync(CHANNEL, 4, 42), null)).isEqualTo(new WireMessage.Sync(CHANNEL, 4, 42));
    }

    @Test
    void carriesTheIncarnationOfTheTaskThatWroteEveryMessage() throws Exception {
        for (int incarnation : new int[] {0, 1, 17, Integer.MAX_VALUE}) {
            byte[] payload = {9};
            assertThat(((WireMessage.Data) codec.decode(codec.encodeDataHeader(CHANNEL, incarnation, 1, 1, payload),
                    payload)).senderIncarnation()).isEqualTo(incarnation);
            assertThat(((WireMessage.Data) codec.decode(codec.encodeBundleHeader(CHANNEL, incarnation, 1, 2,
                    new int[] {0, 1}, payload), payload)).senderIncarnation()).isEqualTo(incarnation);
            assertThat(((WireMessage.Sync) codec.decode(codec.encodeSync(CHANNEL, incarnation, 1), null))
                    .senderIncarnation()).isEqualTo(incarnation);
            assertThat(((WireMessage.Position) codec.decode(codec.encodePosition(MessageType.ACK, CHANNEL,
                    incarnation, 1, 1, 1), null)).receiverIncarnation()).isEqualTo(incarnation);
        }
    }

    @Test
    void rejectsANegativeIncarnation() {
        assertThatThrownBy(() -> codec.encodeSync(CHANNEL, -1, 1)).isInstanceOf(IllegalArgumentException.class);
        byte[] header = codec.encodeSync(CHANNEL, 0, 1);
        ByteBuffer.wrap(header).putInt(INCARNATION_OFFSET, -1);
        assertRejected(resealed(header, null), null, Reason.BAD_INCARNATION);
    }

    @Test
    void carriesTheChannelEpochSoThatDeploymentsNeverMix() throws Exception {
        ChannelId third = CHANNEL.withEpoch(3);

        assertThat(codec.decode(codec.encodeSync(third, 0, 42), null)).isEqualTo(new WireMessage.Sync(third, 0, 42));
        assertThat(codec.decode(codec.encodeSync(third, 0, 42), null))
                .isNotEqualTo(new WireMessage.Sync(CHANNEL, 0, 42));
    }

    @Test
    void rejectsANegativeEpoch() {
        byte[] header = codec.encodeSync(CHANNEL.withEpoch(1), 0, 1);
        header[INCARNATION_OFFSET - 4] = (byte) 0xFF;
        assertRejected(resealed(header, null), null, Reason.BAD_CHANNEL_INDEX);
    }

    @Test
    void acceptsEmptyPayloadAndPayloadOfExactlyTheLimit() throws Exception {
        assertThat(codec.decode(codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[0]), new byte[0])).isNotNull();
        assertThat(codec.decode(codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[1024]), new byte[1024]))
                .isNotNull();
    }

    @Test
    void rejectsEveryTruncationOfEveryMessageType() {
        byte[] payload = new byte[3];
        byte[][] headers = {
            codec.encodeDataHeader(CHANNEL, 0, 1, 1, payload),
            codec.encodePosition(MessageType.ACK, CHANNEL, 0, 1, 1, 1),
            codec.encodePosition(MessageType.SYNC_REPLY, CHANNEL, 0, 1, 1, 1),
            codec.encodeSync(CHANNEL, 0, 1)};
        for (byte[] header : headers) {
            byte[] part = FrameCodec.announcesPayload(header) ? payload : null;
            for (int length = 0; length < header.length; length++) {
                byte[] truncated = Arrays.copyOf(header, length);
                assertRejected(truncated, part, Reason.TRUNCATED, Reason.BAD_CHECKSUM);
            }
            // a sender that wrote too few fields and sealed them
            for (int length = 7; length < header.length - FrameCodec.CHECKSUM_BYTES; length++) {
                assertRejected(sealed(Arrays.copyOf(header, length), part), part, Reason.TRUNCATED,
                        Reason.BAD_TOPOLOGY);
            }
        }
        // cutting inside the topology id must be TRUNCATED, not a misread id
        assertRejected(sealed(Arrays.copyOf(headers[0], 10), payload), payload, Reason.TRUNCATED);
    }

    @Test
    void rejectsEveryFlippedBitOfAMessageAndTellsDamageBeyondItsFirstSixBytesByTheChecksum() {
        byte[] payload = new byte[64];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 37);
        }
        byte[][] headers = {
            codec.encodeDataHeader(CHANNEL, 2, 1001, 250, payload),
            codec.encodeBundleHeader(CHANNEL, 2, 1001, 250, new int[] {30, 0, 34}, payload),
            codec.encodePosition(MessageType.ACK, CHANNEL, 2, 5000, 4000, 32),
            codec.encodePosition(MessageType.SYNC_REPLY, CHANNEL, 2, 5000, 4000, 32),
            codec.encodeSync(CHANNEL, 2, 42)};
        for (byte[] header : headers) {
            byte[] part = FrameCodec.announcesPayload(header) ? payload : null;
            for (int bit = 0; bit < 8 * header.length; bit++) {
                byte[] damaged = flipped(header, bit);
                if (bit < 6 * 8) {
                    // magic, version and type are read before the checksum: told apart from another version
                    assertRejected(damaged, part, Reason.BAD_MAGIC, Reason.BAD_VERSION, Reason.UNKNOWN_TYPE,
                            Reason.MISSING_PAYLOAD, Reason.UNEXPECTED_PAYLOAD, Reason.BAD_CHECKSUM);
                } else {
                    assertRejected(damaged, part, Reason.BAD_CHECKSUM);
                }
            }
            if (part != null) {
                for (int bit = 0; bit < 8 * payload.length; bit++) {
                    assertRejected(header, flipped(payload, bit), Reason.BAD_CHECKSUM);
                }
            }
        }
    }

    @Test
    void rejectsAsDamagedAHeaderWhoseCountsNoLongerMatchThePayloadItWasSealedWith() {
        byte[] payload = new byte[10];
        byte[] data = codec.encodeDataHeader(CHANNEL, 0, 1001, 5, payload);
        ByteBuffer.wrap(data).putInt(BODY_OFFSET + 8, 6);
        assertRejected(data, payload, Reason.BAD_CHECKSUM);

        // parts that still add up to the payload: without the checksum, the frames' boundaries would move silently
        byte[] bundle = codec.encodeBundleHeader(CHANNEL, 0, 1001, 5, new int[] {4, 6}, payload);
        ByteBuffer.wrap(bundle).putInt(BODY_OFFSET + 20, 6).putInt(BODY_OFFSET + 24, 4);
        assertRejected(bundle, payload, Reason.BAD_CHECKSUM);

        byte[] moved = codec.encodeDataHeader(CHANNEL, 0, 1001, 5, payload);
        ByteBuffer.wrap(moved).putLong(BODY_OFFSET, 1002);
        assertRejected(moved, payload, Reason.BAD_CHECKSUM);

        byte[] older = codec.encodeDataHeader(CHANNEL, 3, 1001, 5, payload);
        ByteBuffer.wrap(older).putInt(INCARNATION_OFFSET, 2);
        assertRejected(older, payload, Reason.BAD_CHECKSUM);

        byte[] ack = codec.encodePosition(MessageType.ACK, CHANNEL, 0, 5000, 4000, 32);
        ByteBuffer.wrap(ack).putLong(BODY_OFFSET + 8, 4999);
        assertRejected(ack, null, Reason.BAD_CHECKSUM);
    }

    @Test
    void namesTheChannelOfADamagedHeaderSoThatItsReceiverCanAskForTheResend() {
        byte[] payload = new byte[10];
        byte[] damaged = codec.encodeDataHeader(CHANNEL, 0, 1001, 5, payload);
        damaged[damaged.length - 1] ^= 1;

        assertThat(codec.channelNamedBy(damaged)).isEqualTo(CHANNEL);
        assertThat(codec.channelNamedBy(Arrays.copyOf(damaged, 9))).isNull();
        assertThat(codec.channelNamedBy("not a data plane frame".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(codec.channelNamedBy(null)).isNull();
    }

    @Test
    void rejectsBadMagic() {
        byte[] header = codec.encodeSync(CHANNEL, 0, 1);
        header[0] = 'X';
        assertRejected(header, null, Reason.BAD_MAGIC);
    }

    @Test
    void rejectsAnotherVersionAsSuchNotAsDamage() {
        byte[] header = codec.encodeSync(CHANNEL, 0, 1);
        header[4] = (byte) (FrameCodec.VERSION - 1);
        assertRejected(header, null, Reason.BAD_VERSION);
        header[4] = (byte) (FrameCodec.VERSION + 1);
        assertRejected(header, null, Reason.BAD_VERSION);
    }

    @Test
    void rejectsUnknownType() {
        byte[] header = codec.encodeSync(CHANNEL, 0, 1);
        header[5] = 99;
        assertRejected(header, null, Reason.UNKNOWN_TYPE);
    }

    @Test
    void tellsFromAHeaderWhetherAPayloadPartFollows() {
        assertThat(FrameCodec.announcesPayload(codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[3]))).isTrue();
        assertThat(FrameCodec.announcesPayload(codec.encodeSync(CHANNEL, 0, 1))).isFalse();
        assertThat(FrameCodec.announcesPayload(codec.encodePosition(MessageType.ACK, CHANNEL, 0, 1, 1, 1))).isFalse();
        assertThat(FrameCodec.announcesPayload(new byte[] {0x53, 0x46, 0x44, 0x50, 3})).isFalse();
        assertThat(FrameCodec.announcesPayload("not a data plane frame".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(FrameCodec.announcesPayload(null)).isFalse();
    }

    @Test
    void rejectsInvalidTopologyIdAndLength() throws MalformedFrameException {
        codec.decode(codec.encodeSync(CHANNEL, 0, 1), null); // a valid id seen first is remembered, changes nothing
        byte[] header = codec.encodeSync(CHANNEL, 0, 1);
        header[7] = 'X'; // upper case is not a valid topology id
        assertRejected(resealed(header, null), null, Reason.BAD_TOPOLOGY);
        assertRejected(header, null, Reason.BAD_CHECKSUM);

        byte[] zeroLength = codec.encodeSync(CHANNEL, 0, 1);
        zeroLength[6] = 0;
        assertRejected(resealed(zeroLength, null), null, Reason.BAD_TOPOLOGY);

        byte[] tooLong = codec.encodeSync(CHANNEL, 0, 1);
        tooLong[6] = (byte) 200;
        assertRejected(resealed(tooLong, null), null, Reason.BAD_TOPOLOGY);
    }

    @Test
    void rejectsNegativeChannelIndex() {
        byte[] header = codec.encodeSync(CHANNEL, 0, 1);
        ByteBuffer.wrap(header).putInt(INCARNATION_OFFSET - 8, -1);
        assertRejected(resealed(header, null), null, Reason.BAD_CHANNEL_INDEX);
    }

    @Test
    void rejectsNegativePayloadLength() {
        byte[] payload = new byte[3];
        byte[] header = codec.encodeDataHeader(CHANNEL, 0, 1, 1, payload);
        ByteBuffer.wrap(header).putInt(BODY_OFFSET + 12, -3);
        assertRejected(resealed(header, payload), payload, Reason.NEGATIVE_LENGTH);
    }

    @Test
    void rejectsPayloadLengthThatDisagreesWithThePayloadPart() {
        byte[] header = codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[3]);
        assertRejected(resealed(header, new byte[2]), new byte[2], Reason.LENGTH_MISMATCH);
        assertRejected(resealed(header, new byte[4]), new byte[4], Reason.LENGTH_MISMATCH);
        assertRejected(header, new byte[4], Reason.BAD_CHECKSUM);
    }

    @Test
    void rejectsOversizedPayloadByHeaderOrByActualSize() {
        assertRejected(codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[1025]), new byte[1025], Reason.OVERSIZED);
        byte[] claimsTooMuch = codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[3]);
        ByteBuffer.wrap(claimsTooMuch).putInt(BODY_OFFSET + 12, Integer.MAX_VALUE);
        assertRejected(resealed(claimsTooMuch, new byte[3]), new byte[3], Reason.OVERSIZED);
        assertRejected(codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[3]), new byte[2000], Reason.OVERSIZED);
    }

    @Test
    void rejectsDataWithoutPayloadAndControlMessagesWithPayload() {
        assertRejected(codec.encodeDataHeader(CHANNEL, 0, 1, 1, new byte[3]), null, Reason.MISSING_PAYLOAD);
        assertRejected(codec.encodeSync(CHANNEL, 0, 1), new byte[1], Reason.UNEXPECTED_PAYLOAD);
        assertRejected(codec.encodePosition(MessageType.ACK, CHANNEL, 0, 1, 1, 1), new byte[1],
                Reason.UNEXPECTED_PAYLOAD);
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] header = codec.encodeSync(CHANNEL, 0, 1);
        byte[] fields = Arrays.copyOf(header, header.length - FrameCodec.CHECKSUM_BYTES + 1);
        assertRejected(sealed(fields, null), null, Reason.TRAILING_BYTES);
    }

    @Test
    void rejectsImpossibleSequenceFieldsThatASenderSealed() {
        byte[] empty = new byte[0];
        assertRejected(codec.encodeDataHeader(CHANNEL, 0, 0, 1, empty), empty, Reason.BAD_SEQUENCE);
        assertRejected(codec.encodeDataHeader(CHANNEL, 0, Long.MAX_VALUE - 1, 5, empty), empty, Reason.BAD_SEQUENCE);
        assertRejected(codec.encodeDataHeader(CHANNEL, 0, 1, -5, empty), empty, Reason.BAD_EVENT_COUNT);
        assertRejected(codec.encodePosition(MessageType.ACK, CHANNEL, 0, 10, 11, 1), null, Reason.BAD_SEQUENCE);
        assertRejected(codec.encodePosition(MessageType.ACK, CHANNEL, 0, -1, -1, 1), null, Reason.BAD_SEQUENCE);
        assertRejected(codec.encodePosition(MessageType.SYNC_REPLY, CHANNEL, 0, 1, 1, 0), null, Reason.BAD_CREDIT);
        assertRejected(codec.encodeSync(CHANNEL, 0, 0), null, Reason.BAD_SEQUENCE);
    }

    @Test
    void rejectsGarbage() {
        assertRejected("hello world, this is not a frame".getBytes(StandardCharsets.UTF_8), null, Reason.BAD_MAGIC);
        assertRejected(new byte[0], null, Reason.TRUNCATED);
    }

    private static byte[] flipped(byte[] bytes, int bit) {
        byte[] copy = bytes.clone();
        copy[bit / 8] ^= (byte) (1 << (bit % 8));
        return copy;
    }

    private void assertRejected(byte[] header, byte[] payload, Reason... acceptable) {
        assertThatThrownBy(() -> codec.decode(header, payload))
                .as("decoding %s", Arrays.toString(header))
                .isInstanceOfSatisfying(MalformedFrameException.class,
                        e -> assertThat(e.reason()).as(e.getMessage()).isIn((Object[]) acceptable));
    }
}
