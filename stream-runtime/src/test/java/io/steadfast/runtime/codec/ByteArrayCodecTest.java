package io.steadfast.runtime.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.codec.CodecException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ByteArrayCodecTest {

    private static ByteArrayCodecInput inputOf(ByteArrayCodecOutput out) {
        return new ByteArrayCodecInput(out.toByteArray());
    }

    @Test
    void roundTripsIntsIncludingExtremes() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        int[] values = {0, 1, -1, 63, -64, 64, -65, 127, 128, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (int value : values) {
            out.writeInt(value);
            out.writeVarInt(value);
        }

        ByteArrayCodecInput in = inputOf(out);

        for (int value : values) {
            assertThat(in.readInt()).isEqualTo(value);
            assertThat(in.readVarInt()).isEqualTo(value);
        }
        assertThat(in.remaining()).isZero();
    }

    @Test
    void roundTripsLongsIncludingExtremes() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        long[] values = {0L, 1L, -1L, -300L, 1L << 40, -(1L << 40), Long.MAX_VALUE, Long.MIN_VALUE,
                Integer.MAX_VALUE + 1L, Integer.MIN_VALUE - 1L};
        for (long value : values) {
            out.writeLong(value);
            out.writeVarLong(value);
        }

        ByteArrayCodecInput in = inputOf(out);

        for (long value : values) {
            assertThat(in.readLong()).isEqualTo(value);
            assertThat(in.readVarLong()).isEqualTo(value);
        }
        assertThat(in.remaining()).isZero();
    }

    @Test
    void writesSmallNegativeVarIntsInOneByte() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);

        out.writeVarInt(-1);
        out.writeVarLong(-64);

        assertThat(out.size()).isEqualTo(2);
        ByteArrayCodecInput in = inputOf(out);
        assertThat(in.readVarInt()).isEqualTo(-1);
        assertThat(in.readVarLong()).isEqualTo(-64L);
    }

    @Test
    void roundTripsDoublesBooleansAndBytes() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        double[] doubles = {0.0, -0.0, 1.5, -1e300, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double value : doubles) {
            out.writeDouble(value);
        }
        out.writeBoolean(true);
        out.writeBoolean(false);
        out.writeByte(0x7F);
        out.writeBytes(new byte[0]);
        out.writeBytes(new byte[] {0, -1, 127, -128});

        ByteArrayCodecInput in = inputOf(out);

        for (double value : doubles) {
            assertThat(Double.doubleToRawLongBits(in.readDouble())).isEqualTo(Double.doubleToRawLongBits(value));
        }
        assertThat(in.readBoolean()).isTrue();
        assertThat(in.readBoolean()).isFalse();
        assertThat(in.readByte()).isEqualTo(0x7F);
        assertThat(in.readBytes()).isEmpty();
        assertThat(in.readBytes()).containsExactly(0, -1, 127, -128);
        assertThat(in.remaining()).isZero();
    }

    @Test
    void roundTripsAsciiEmptyAndNonAsciiStrings() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        String[] values = {"", "plain", "grüße", "日本語", "emoji \uD83D\uDE00", "\u007F\u0080"};
        for (String value : values) {
            out.writeString(value);
        }

        ByteArrayCodecInput in = inputOf(out);

        for (String value : values) {
            assertThat(in.readString()).isEqualTo(value);
        }
        assertThat(in.remaining()).isZero();
    }

    @Test
    void prefixesNonAsciiStringsWithTheirUtf8ByteLength() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);

        out.writeString("ü");

        assertThat(out.toByteArray()).containsExactly(2, "ü".getBytes(StandardCharsets.UTF_8)[0],
                "ü".getBytes(StandardCharsets.UTF_8)[1]);
    }

    @Test
    void growsBeyondItsInitialCapacityAndResets() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(1);
        byte[] big = new byte[10_000];
        big[9_999] = 42;

        out.writeBytes(big);
        ByteArrayCodecInput in = inputOf(out);
        out.reset();
        out.writeByte(5);

        assertThat(in.readBytes()).hasSize(10_000).endsWith(42);
        assertThat(out.toByteArray()).containsExactly(5);
    }

    @Test
    void readsOnlyWithinTheGivenRange() {
        byte[] buffer = {9, 1, 2, 9};
        ByteArrayCodecInput in = new ByteArrayCodecInput(buffer, 1, 2);

        assertThat(in.readByte()).isEqualTo(1);
        assertThat(in.readByte()).isEqualTo(2);
        assertThatThrownBy(in::readByte).isInstanceOf(CodecException.class).hasMessageContaining("truncated");
    }

    @Test
    void rejectsTruncatedFixedWidthValues() {
        assertThatThrownBy(() -> new ByteArrayCodecInput(new byte[3]).readInt())
                .isInstanceOf(CodecException.class).hasMessageContaining("int needs 4 bytes");
        assertThatThrownBy(() -> new ByteArrayCodecInput(new byte[7]).readLong())
                .isInstanceOf(CodecException.class).hasMessageContaining("long needs 8 bytes");
        assertThatThrownBy(() -> new ByteArrayCodecInput(new byte[7]).readDouble())
                .isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> new ByteArrayCodecInput(new byte[] {(byte) 0x80}).readVarLong())
                .isInstanceOf(CodecException.class).hasMessageContaining("varlong");
    }

    @Test
    void rejectsABooleanByteOtherThanZeroOrOne() {
        ByteArrayCodecInput in = new ByteArrayCodecInput(new byte[] {2});

        assertThatThrownBy(in::readBoolean).isInstanceOf(CodecException.class).hasMessageContaining("was 2");
    }

    @Test
    void rejectsAVarIntOutsideTheIntRange() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        out.writeVarLong(Integer.MAX_VALUE + 1L);

        assertThatThrownBy(() -> inputOf(out).readVarInt())
                .isInstanceOf(CodecException.class).hasMessageContaining("out of int range");
    }

    @Test
    void rejectsAVarLongLongerThanTenBytes() {
        byte[] eleven = new byte[11];
        java.util.Arrays.fill(eleven, (byte) 0x80);

        assertThatThrownBy(() -> new ByteArrayCodecInput(eleven).readVarLong())
                .isInstanceOf(CodecException.class).hasMessageContaining("longer than 10 bytes");
    }

    @Test
    void rejectsAVarLongWhoseTenthByteOverflowsSixtyFourBits() {
        byte[] overflowing = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F};

        assertThatThrownBy(() -> new ByteArrayCodecInput(overflowing).readVarLong())
                .isInstanceOf(CodecException.class);
    }

    @Test
    void rejectsAStringLengthBeyondTheBytesLeftWithoutReadingOutOfRange() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        out.writeLength(Integer.MAX_VALUE);
        out.writeRaw(new byte[] {'a', 'b'}, 0, 2);
        ByteArrayCodecOutput twoToThe31 = new ByteArrayCodecOutput(0);
        twoToThe31.writeVarLong(1L << 30); // zig-zag doubles it: the unsigned length is 2^31
        twoToThe31.writeRaw(new byte[] {'a'}, 0, 1);

        assertThatThrownBy(() -> inputOf(out).readString())
                .isInstanceOf(CodecException.class).hasMessageContaining("string length 2147483647");
        assertThatThrownBy(() -> inputOf(twoToThe31).readString())
                .isInstanceOf(CodecException.class).hasMessageContaining("string length 2147483648");
        assertThatThrownBy(() -> inputOf(out).readBytes())
                .isInstanceOf(CodecException.class).hasMessageContaining("bytes length");
    }

    @Test
    void rejectsALengthPrefixWithTheSixtyFourthBitSet() {
        // nine 0xFF bytes and a final 0x01: the unsigned varlong 2^64 - 1, which is negative as a Java long
        byte[] negativeLength = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01, 'a', 'b'};

        assertThatThrownBy(() -> new ByteArrayCodecInput(negativeLength).readString())
                .isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> new ByteArrayCodecInput(negativeLength).readBytes())
                .isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> new ByteArrayCodecInput(negativeLength).readCount("items"))
                .isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> new ByteArrayCodecInput(negativeLength).readVarInt())
                .isInstanceOf(CodecException.class);
    }

    @Test
    void rejectsANegativeLengthOnWrite() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);

        assertThatThrownBy(() -> out.writeLength(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsARangeOutsideTheBuffer() {
        assertThatThrownBy(() -> new ByteArrayCodecInput(new byte[4], 2, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside 4 bytes");
    }
}
