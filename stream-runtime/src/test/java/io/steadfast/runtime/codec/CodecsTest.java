package io.steadfast.runtime.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.codec.ValueCodec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodecsTest {

    private static <T> T roundTrip(ValueCodec<T> codec, T value) {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        codec.encode(value, out);
        ByteArrayCodecInput in = new ByteArrayCodecInput(out.toByteArray());
        T decoded = codec.decode(in);
        assertThat(in.remaining()).as("bytes left after decoding %s with %s", value, codec).isZero();
        return decoded;
    }

    @Test
    void roundTripsEveryBuiltInCodecWithEdgeValues() {
        assertThat(roundTrip(Codecs.LONG, Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
        assertThat(roundTrip(Codecs.LONG, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(roundTrip(Codecs.LONG, -7L)).isEqualTo(-7L);
        assertThat(roundTrip(Codecs.INT, Integer.MIN_VALUE)).isEqualTo(Integer.MIN_VALUE);
        assertThat(roundTrip(Codecs.INT, Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(roundTrip(Codecs.DOUBLE, -0.25)).isEqualTo(-0.25);
        assertThat(roundTrip(Codecs.DOUBLE, Double.NaN)).isNaN();
        assertThat(roundTrip(Codecs.BOOLEAN, true)).isTrue();
        assertThat(roundTrip(Codecs.BOOLEAN, false)).isFalse();
        assertThat(roundTrip(Codecs.STRING, "")).isEmpty();
        assertThat(roundTrip(Codecs.STRING, "naïve ☃")).isEqualTo("naïve ☃");
        assertThat(roundTrip(Codecs.BYTES, new byte[0])).isEmpty();
        assertThat(roundTrip(Codecs.BYTES, new byte[] {1, -2, 3})).containsExactly(1, -2, 3);
    }

    @Test
    void namesBuiltInCodecsStably() {
        List<String> names = new ArrayList<>();
        for (ValueCodec<?> codec : List.of(Codecs.LONG, Codecs.INT, Codecs.DOUBLE, Codecs.BOOLEAN, Codecs.STRING,
                Codecs.BYTES, Codecs.ANY)) {
            names.add(codec.name());
        }

        assertThat(names).containsExactly("long", "int", "double", "boolean", "string", "bytes", "any");
        assertThat(Codecs.BYTES.type()).isEqualTo(byte[].class);
        assertThat(Codecs.ANY.type()).isEqualTo(Object.class);
    }

    @Test
    void anyRoundTripsAValueOfEveryTagKeepingItsType() {
        Object[] values = {null, Long.MIN_VALUE, Integer.MAX_VALUE, 2.5, true, "ümlaut", new byte[] {7, 8}};

        for (int tag = 0; tag < values.length; tag++) {
            ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
            Codecs.ANY.encode(values[tag], out);
            byte[] bytes = out.toByteArray();
            Object decoded = Codecs.ANY.decode(new ByteArrayCodecInput(bytes));

            assertThat(bytes[0]).as("tag of %s", values[tag]).isEqualTo((byte) tag);
            if (values[tag] instanceof byte[] expected) {
                assertThat((byte[]) decoded).containsExactly(expected);
            } else {
                assertThat(decoded).isEqualTo(values[tag]);
                assertThat(decoded == null ? null : decoded.getClass())
                        .isEqualTo(values[tag] == null ? null : values[tag].getClass());
            }
        }
    }

    @Test
    void anyRefusesAValueOfAnotherTypeNamingIt() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);

        assertThatThrownBy(() -> Codecs.ANY.encode(new Point(1, 2), out))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining(Point.class.getName())
                .hasMessageContaining("declare the state with a codec for that type");
        assertThat(out.size()).isZero();
    }

    @Test
    void encodeTaggedWritesNothingForAnUnknownType() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);

        boolean written = Codecs.encodeTagged(new Point(1, 2), out);

        assertThat(written).isFalse();
        assertThat(out.size()).isZero();
    }

    @Test
    void decodeTaggedRejectsTheNamedTagAndUnknownTags() {
        ByteArrayCodecInput in = new ByteArrayCodecInput(new byte[] {1, 2, 3});

        assertThatThrownBy(() -> Codecs.decodeTagged(Codecs.NAMED_TAG, in))
                .isInstanceOf(CodecException.class).hasMessage("unknown value tag 7");
        assertThatThrownBy(() -> Codecs.decodeTagged(99, in))
                .isInstanceOf(CodecException.class).hasMessage("unknown value tag 99");
        assertThat(in.remaining()).isEqualTo(3);
    }
}
