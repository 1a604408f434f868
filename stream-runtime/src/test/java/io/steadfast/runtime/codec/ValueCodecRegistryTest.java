package io.steadfast.runtime.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.CodecInput;
import io.steadfast.api.codec.CodecOutput;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.codec.ValueCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueCodecRegistryTest {

    private final ValueCodecRegistry withPoint = ValueCodecRegistry.of(List.of(Point.CODEC));

    private static Object roundTrip(ValueCodecRegistry registry, Object value) {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        registry.write(value, out);
        ByteArrayCodecInput in = new ByteArrayCodecInput(out.toByteArray());
        Object decoded = registry.read(in);
        assertThat(in.remaining()).isZero();
        return decoded;
    }

    @Test
    void roundTripsAValueOfARegisteredUserType() {
        assertThat(roundTrip(withPoint, new Point(-3, Integer.MAX_VALUE))).isEqualTo(new Point(-3, Integer.MAX_VALUE));
    }

    @Test
    void writesAUserValueWithTheNamedTagAndTheCodecName() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);

        withPoint.write(new Point(1, 1), out);

        ByteArrayCodecInput in = new ByteArrayCodecInput(out.toByteArray());
        assertThat(in.readByte()).isEqualTo(Codecs.NAMED_TAG);
        assertThat(in.readString()).isEqualTo("point");
    }

    @Test
    void stillRoundTripsBuiltInValuesWhenUserCodecsAreRegistered() {
        assertThat(roundTrip(withPoint, 42L)).isEqualTo(42L);
        assertThat(roundTrip(withPoint, "s")).isEqualTo("s");
        assertThat(roundTrip(withPoint, null)).isNull();
    }

    @Test
    void refusesToWriteAnUnregisteredTypeNamingItAndWhatToDo() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);

        assertThatThrownBy(() -> ValueCodecRegistry.builtIn().write(new Point(1, 2), out))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("No codec for values of " + Point.class.getName())
                .hasMessageContaining("OperatorProvider's codecs()");
    }

    @Test
    void refusesToReadAValueOfAnUnknownCodecNameListingTheKnownOnes() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        withPoint.write(new Point(1, 2), out);
        ValueCodecRegistry other = ValueCodecRegistry.of(List.of(renamed("vector")));

        assertThatThrownBy(() -> other.read(new ByteArrayCodecInput(out.toByteArray())))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("no codec named 'point'")
                .hasMessageContaining("[vector]");
    }

    @Test
    void findsBuiltInAndRegisteredCodecsByNameForSnapshots() {
        assertThat(withPoint.codecNamed("long")).isSameAs(Codecs.LONG);
        assertThat(withPoint.codecNamed("any")).isSameAs(Codecs.ANY);
        assertThat(withPoint.codecNamed("point")).isSameAs(Point.CODEC);
        assertThatThrownBy(() -> withPoint.codecNamed("nope"))
                .isInstanceOf(CodecException.class).hasMessageContaining("no codec named 'nope'");
    }

    @Test
    void refusesTwoCodecsWithTheSameName() {
        assertThatThrownBy(() -> ValueCodecRegistry.of(List.of(Point.CODEC, renamed("point"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Two codecs are named 'point'");
    }

    @Test
    void refusesAUserCodecNamedLikeABuiltInOne() {
        assertThatThrownBy(() -> ValueCodecRegistry.of(List.of(renamed("long"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'long'");
    }

    private static ValueCodec<Point> renamed(String name) {
        return new ValueCodec<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Class<Point> type() {
                return Point.class;
            }

            @Override
            public void encode(Point value, CodecOutput out) {
                Point.CODEC.encode(value, out);
            }

            @Override
            public Point decode(CodecInput in) {
                return Point.CODEC.decode(in);
            }
        };
    }

    @Test
    @SuppressWarnings("unchecked")
    void roundTripsNestedListsOfBuiltInAndUserValuesAsUnmodifiableLists() {
        List<Object> nested = java.util.Arrays.asList("origin", 7L, 2, List.of(new Point(1, 2), 3.5), List.of(), null);

        Object decoded = roundTrip(withPoint, nested);

        assertThat(decoded).isEqualTo(nested);
        assertThatThrownBy(() -> ((List<Object>) decoded).add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void refusesAListWhoseLengthIsOutOfRange() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        out.writeByte(ValueCodecRegistry.LIST_TAG);
        out.writeVarInt(-1);

        assertThatThrownBy(() -> ValueCodecRegistry.builtIn().read(new ByteArrayCodecInput(out.toByteArray())))
                .isInstanceOf(CodecException.class).hasMessageContaining("out of range");
    }
}
