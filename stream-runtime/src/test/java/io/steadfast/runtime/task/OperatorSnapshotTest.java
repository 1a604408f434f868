package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.api.state.ValueState;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class OperatorSnapshotTest {

    private static final OperatorType<NoConfig> COUNTER = OperatorType.processor("counter", NoConfig.class, init -> {
        ValueState<Long> count = init.state().valueState("count", Codecs.LONG);
        return (event, context) -> count.update(count.valueOr(0L) + 1);
    }, "test");

    private static KeyedProcessorDriver newDriver() {
        return new KeyedProcessorDriver(COUNTER, new NoConfig(), new OperatorInfo("t", "c", 0, 1),
                ValueCodecRegistry.builtIn());
    }

    private static OperatorSnapshot snapshotWithState() {
        KeyedProcessorDriver driver = newDriver();
        driver.process(Event.of("a", 1L, 1), event -> { });
        driver.process(Event.of("a", 1L, 2), event -> { });
        return OperatorSnapshot.take("counter", driver);
    }

    @Test
    void roundTripsThroughBytes() {
        OperatorSnapshot snapshot = snapshotWithState();

        OperatorSnapshot copy = OperatorSnapshot.fromBytes(snapshot.toBytes());
        KeyedProcessorDriver restored = newDriver();
        copy.restoreInto("counter", restored);

        assertThat(copy).isEqualTo(snapshot).hasSameHashCodeAs(snapshot);
        assertThat(copy.operatorType()).isEqualTo("counter");
        assertThat(copy.sizeInBytes()).isEqualTo(snapshot.sizeInBytes()).isPositive();
        assertThat(restored.query("count", "a")).contains(2L);
    }

    @Test
    void rejectsBadMagic() {
        byte[] bytes = snapshotWithState().toBytes();
        bytes[0] ^= 1;

        assertThatThrownBy(() -> OperatorSnapshot.fromBytes(bytes))
                .isInstanceOf(CodecException.class).hasMessageContaining("not an operator snapshot");
    }

    @Test
    void rejectsAnUnsupportedVersion() {
        byte[] bytes = snapshotWithState().toBytes();
        bytes[4] = 3;

        assertThatThrownBy(() -> OperatorSnapshot.fromBytes(bytes))
                .isInstanceOf(CodecException.class).hasMessage("operator snapshot version 3 is not supported");
    }

    @Test
    void roundTripsChannelPositions() {
        KeyedProcessorDriver driver = newDriver();
        driver.process(Event.of("a", 1L, 1), event -> { });
        ChannelPositions positions = new ChannelPositions(java.util.Map.of(0, 5L, 7, 1L << 40), java.util.Map.of(3, 9L), 123);
        OperatorSnapshot snapshot = OperatorSnapshot.prepare("counter", driver, positions).write();

        OperatorSnapshot copy = OperatorSnapshot.fromBytes(snapshot.toBytes());

        assertThat(copy.positions()).isEqualTo(positions);
        assertThat(copy).isEqualTo(snapshot);
    }

    @Test
    void readsSnapshotsStoredWithoutChannelPositions() {
        OperatorSnapshot plain = snapshotWithState();
        byte[] withoutPositions = plain.toBytes();
        // a version 1 snapshot: the same bytes up to the end of the state, without the two empty position maps and the log offset
        byte[] version1 = java.util.Arrays.copyOf(withoutPositions, withoutPositions.length - 3);
        version1[4] = 1;

        assertThat(OperatorSnapshot.fromBytes(version1)).isEqualTo(plain);
        assertThat(OperatorSnapshot.fromBytes(version1).positions()).isEqualTo(ChannelPositions.NONE);
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] bytes = snapshotWithState().toBytes();
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 2);

        assertThatThrownBy(() -> OperatorSnapshot.fromBytes(longer))
                .isInstanceOf(CodecException.class).hasMessage("2 trailing bytes after an operator snapshot");
    }

    @Test
    void rejectsEveryTruncationWithCodecException() {
        byte[] bytes = snapshotWithState().toBytes();

        for (int length = 0; length < bytes.length; length++) {
            byte[] prefix = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> OperatorSnapshot.fromBytes(prefix))
                    .as("truncated to %d of %d bytes", length, bytes.length)
                    .isInstanceOf(CodecException.class);
        }
    }

    @Test
    void refusesStateBytesTheDriverLeavesUnread() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        out.writeInt(0x53464F53);
        out.writeByte(1);
        out.writeString("counter");
        ByteArrayCodecOutput inner = new ByteArrayCodecOutput(0);
        newDriver().snapshot(inner);
        inner.writeByte(0); // one byte too many
        out.writeBytes(inner.toByteArray());
        OperatorSnapshot padded = OperatorSnapshot.fromBytes(out.toByteArray());

        assertThatThrownBy(() -> padded.restoreInto("counter", newDriver()))
                .isInstanceOf(CodecException.class).hasMessage("1 bytes left over after restoring counter");
    }
}
