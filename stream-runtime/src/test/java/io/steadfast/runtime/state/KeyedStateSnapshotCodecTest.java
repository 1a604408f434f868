package io.steadfast.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.state.MapState;
import io.steadfast.api.state.ValueState;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyedStateSnapshotCodecTest {

    private static final int KEYS = 500;

    private final KeyedStateSnapshotCodec codec = new KeyedStateSnapshotCodec(ValueCodecRegistry.builtIn());

    /** What a PE constructor would do: declare its states. */
    private static void declare(HeapKeyedStateBackend backend) {
        backend.valueState("count", Codecs.LONG);
        backend.mapState("seen", Codecs.STRING, Codecs.ANY);
    }

    private static byte[] snapshotOfManyKeys(KeyedTimers timers) {
        HeapKeyedStateBackend backend = new HeapKeyedStateBackend();
        declare(backend);
        ValueState<Long> count = backend.valueState("count", Codecs.LONG);
        MapState<String, Object> seen = backend.mapState("seen", Codecs.STRING, Codecs.ANY);
        for (int k = 0; k < KEYS; k++) {
            backend.setCurrent(backend.addEntry("key-" + k));
            if (k % 3 != 0) {
                count.update((long) k * 1_000_000_007L);
            }
            if (k % 2 == 0) {
                seen.put("n", k);
                seen.put("s", "v" + k);
                seen.put("d", k / 2.0);
            }
            timers.register(k % 7, "key-" + k);
        }
        backend.setCurrent(backend.addEntry("empty")); // a key without state is not written
        ByteArrayCodecOutput out = out();
        new KeyedStateSnapshotCodec(ValueCodecRegistry.builtIn()).write(backend, timers, out);
        return out.toByteArray();
    }

    private static ByteArrayCodecOutput out() {
        return new ByteArrayCodecOutput(64);
    }

    private HeapKeyedStateBackend restore(byte[] bytes, KeyedTimers timers) {
        HeapKeyedStateBackend backend = new HeapKeyedStateBackend();
        ByteArrayCodecInput in = new ByteArrayCodecInput(bytes);
        codec.read(in, backend, timers, key -> {
            KeyEntry entry = backend.addEntry(key);
            declare(backend);
            return entry;
        });
        assertThat(in.remaining()).isZero();
        return backend;
    }

    @Test
    void roundTripsManyKeysWithValueAndMapStateAndTimers() {
        KeyedTimers timers = new KeyedTimers();
        byte[] bytes = snapshotOfManyKeys(timers);
        KeyedTimers restoredTimers = new KeyedTimers();

        HeapKeyedStateBackend restored = restore(bytes, restoredTimers);

        long keysWithState = java.util.stream.IntStream.range(0, KEYS).filter(k -> k % 6 != 3).count();
        assertThat(restored.keyCount()).isEqualTo((int) keysWithState).isEqualTo(417);
        for (int k = 0; k < KEYS; k++) {
            String key = "key-" + k;
            if (k % 3 != 0) {
                assertThat(restored.read("count", key)).as(key).contains((long) k * 1_000_000_007L);
            } else {
                assertThat(restored.read("count", key)).as(key).isEmpty();
            }
            if (k % 2 == 0) {
                assertThat(restored.read("seen", key)).as(key)
                        .contains(Map.of("n", k, "s", "v" + k, "d", k / 2.0));
            } else {
                assertThat(restored.read("seen", key)).as(key).isEmpty();
            }
        }
        assertThat(restored.entry("empty")).isNull();
        assertThat(timerList(restoredTimers)).isEqualTo(timerList(timers));
        assertThat(restoredTimers.size()).isEqualTo(KEYS);
    }

    @Test
    void restoresIntoAStateDeclaredWithOtherSlotsByName() {
        byte[] bytes = snapshotOfManyKeys(new KeyedTimers());
        HeapKeyedStateBackend backend = new HeapKeyedStateBackend();

        codec.read(new ByteArrayCodecInput(bytes), backend, new KeyedTimers(), key -> {
            KeyEntry entry = backend.addEntry(key);
            backend.mapState("seen", Codecs.STRING, Codecs.ANY); // declared in the other order
            backend.valueState("added-later", Codecs.STRING);
            backend.valueState("count", Codecs.LONG);
            return entry;
        });

        assertThat(backend.read("count", "key-1")).contains(1_000_000_007L);
        assertThat(backend.read("seen", "key-2")).contains(Map.of("n", 2, "s", "v2", "d", 1.0));
    }

    @Test
    void refusesAStateTheReaderDeclaresWithAnotherCodecNamingBoth() {
        byte[] bytes = snapshotOfManyKeys(new KeyedTimers());
        HeapKeyedStateBackend backend = new HeapKeyedStateBackend();

        assertThatThrownBy(() -> codec.read(new ByteArrayCodecInput(bytes), backend, new KeyedTimers(), key -> {
            KeyEntry entry = backend.addEntry(key);
            backend.valueState("count", Codecs.INT);
            return entry;
        }))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("State 'count'")
                .hasMessageContaining("value state with codec 'long'")
                .hasMessageContaining("declares value state with codec 'int'");
    }

    @Test
    void rejectsASnapshotTruncatedAtAnyByteWithCodecException() {
        KeyedTimers timers = new KeyedTimers();
        timers.register(3, "a");
        HeapKeyedStateBackend backend = new HeapKeyedStateBackend();
        declare(backend);
        backend.setCurrent(backend.addEntry("a"));
        backend.valueState("count", Codecs.LONG).update(5L);
        backend.mapState("seen", Codecs.STRING, Codecs.ANY).put("x", "y");
        ByteArrayCodecOutput out = out();
        codec.write(backend, timers, out);
        byte[] bytes = out.toByteArray();

        for (int length = 0; length < bytes.length; length++) {
            byte[] prefix = Arrays.copyOf(bytes, length);
            try {
                restore(prefix, new KeyedTimers());
                fail("a snapshot truncated to %d of %d bytes was accepted", length, bytes.length);
            } catch (CodecException expected) {
                // as it should
            } catch (RuntimeException other) {
                throw new AssertionError("truncated to " + length + ": " + other, other);
            }
        }
    }

    @Test
    void rejectsBadMagicAndVersion() {
        byte[] bytes = snapshotOfManyKeys(new KeyedTimers());
        byte[] badMagic = bytes.clone();
        badMagic[0] = 0;
        byte[] badVersion = bytes.clone();
        badVersion[4] = 9;

        assertThatThrownBy(() -> restore(badMagic, new KeyedTimers()))
                .isInstanceOf(CodecException.class).hasMessageContaining("not a keyed state snapshot");
        assertThatThrownBy(() -> restore(badVersion, new KeyedTimers()))
                .isInstanceOf(CodecException.class).hasMessageContaining("version 9 is not supported");
    }

    @Test
    void rejectsAnUnknownStateKindAsMalformed() {
        ByteArrayCodecOutput out = out();
        out.writeInt(0x53464B53);
        out.writeByte(1);
        out.writeLength(1);
        out.writeString("s");
        out.writeByte(7); // no such kind
        out.writeString("");
        out.writeString("long");
        out.writeLength(0);
        out.writeLength(0);

        assertThatThrownBy(() -> restore(out.toByteArray(), new KeyedTimers()))
                .isInstanceOf(CodecException.class).hasMessageContaining("state kind");
    }

    @Test
    void rejectsAMapStateWithoutAKeyCodecAsMalformed() {
        ByteArrayCodecOutput out = out();
        out.writeInt(0x53464B53);
        out.writeByte(1);
        out.writeLength(1);
        out.writeString("m");
        out.writeByte(StateKind.MAP.code());
        out.writeString(""); // no key codec
        out.writeString("long");
        out.writeLength(1);
        out.writeString("k");
        out.writeLength(1);
        out.writeLength(0);
        out.writeLength(1);
        out.writeVarLong(1);
        out.writeVarLong(2);
        out.writeLength(0);

        assertThatThrownBy(() -> restore(out.toByteArray(), new KeyedTimers()))
                .isInstanceOf(CodecException.class).hasMessageContaining("state 'm'");
    }

    @Test
    void rejectsASlotIndexThatNamesNoState() {
        ByteArrayCodecOutput out = out();
        out.writeInt(0x53464B53);
        out.writeByte(1);
        out.writeLength(0); // no states
        out.writeLength(1); // one key
        out.writeString("k");
        out.writeLength(1);
        out.writeLength(0); // slot 0
        out.writeLength(0);

        assertThatThrownBy(() -> restore(out.toByteArray(), new KeyedTimers()))
                .isInstanceOf(CodecException.class).hasMessageContaining("slot 0 of key 'k' names no declared state");
    }

    private static List<KeyedTimers.Timer> timerList(KeyedTimers timers) {
        List<KeyedTimers.Timer> all = new ArrayList<>();
        timers.iterator().forEachRemaining(all::add);
        return all;
    }
}
