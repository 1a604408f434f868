package io.steadfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.api.Event;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.operator.builtin.WindowSumConfig;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every stateful built-in operator, snapshotted mid-stream and restored into a new driver, continues exactly
 * as a driver that never stopped: the same outputs, in order, and the same state key by key.
 */
class BuiltinSnapshotRestoreTest {

    private static final int EVENTS = 300;
    private static final int KEYS = 7;
    private static final String[] STATES = {"count", "digest", "sums", "latest"};

    /** Event i: key i % 7, a value that varies in type, event time 3i; a watermark every 11 events. */
    private static void feed(PeTestDriver<?> driver, int from, int to) {
        for (int i = from; i < to; i++) {
            Object value = switch (i % 4) {
                case 0 -> (long) i;
                case 1 -> i % 13;
                case 2 -> i / 4.0;
                default -> (long) -i;
            };
            driver.send("key-" + (i % KEYS), value, 3L * i);
            if (i % 11 == 10) {
                driver.advanceWatermark(3L * i - 20);
            }
        }
    }

    private static <O> void assertContinuesAsUninterrupted(String type, Supplier<PeTestDriver.Builder<Object, O, ?>>
            builder, int snapshotAt) {
        List<Event<O>> expected;
        PeTestDriver<O> uninterrupted = builder.get().build();
        feed(uninterrupted, 0, EVENTS);
        uninterrupted.advanceWatermark(Long.MAX_VALUE);
        expected = uninterrupted.outputs();

        PeTestDriver<O> first = builder.get().build();
        feed(first, 0, snapshotAt);
        List<Event<O>> actual = new ArrayList<>(first.outputs());
        OperatorSnapshot snapshot = OperatorSnapshot.fromBytes(first.snapshot().toBytes());
        feed(first, snapshotAt, snapshotAt + 20); // lost with the failure
        PeTestDriver<O> restored = builder.get().restoreFrom(snapshot).build();
        feed(restored, snapshotAt, EVENTS);
        restored.advanceWatermark(Long.MAX_VALUE);
        actual.addAll(restored.outputs());

        assertThat(snapshot.operatorType()).isEqualTo(type);
        assertThat(actual).isEqualTo(expected);
        assertThat(restored.latestOutputByKey()).isEqualTo(uninterrupted.latestOutputByKey());
        assertThat(restored.keyCount()).isEqualTo(uninterrupted.keyCount());
        for (int k = 0; k < KEYS; k++) {
            for (String state : STATES) {
                assertThat(restored.state(state, "key-" + k)).as("%s of key-%d", state, k)
                        .isEqualTo(uninterrupted.state(state, "key-" + k));
            }
        }
    }

    @Test
    void keyedCountContinuesAfterRestoreAsIfNeverStopped() {
        assertContinuesAsUninterrupted(BuiltinOperators.KEYED_COUNT,
                () -> BuiltinOperatorsTest.<Long, NoConfig>builtIn(BuiltinOperators.KEYED_COUNT, new NoConfig()), 137);
    }

    @Test
    void keyedDigestContinuesItsChainAfterRestoreAsIfNeverStopped() {
        assertContinuesAsUninterrupted(BuiltinOperators.KEYED_DIGEST,
                () -> BuiltinOperatorsTest.<Long, NoConfig>builtIn(BuiltinOperators.KEYED_DIGEST, new NoConfig()), 137);
    }

    @Test
    void windowSumRestoresPendingWindowsWhoseTimersFireAfterRestore() {
        PeTestDriver<Object> probe = BuiltinOperatorsTest.<Object, WindowSumConfig>builtIn(
                BuiltinOperators.WINDOW_SUM, new WindowSumConfig(50L)).build();
        feed(probe, 0, 137);
        int keysWithOpenWindows = 0;
        for (int k = 0; k < KEYS; k++) {
            if (probe.state("sums", "key-" + k).isPresent()) {
                keysWithOpenWindows++;
            }
        }

        assertThat(keysWithOpenWindows).as("open windows at the snapshot").isEqualTo(KEYS);
        assertContinuesAsUninterrupted(BuiltinOperators.WINDOW_SUM,
                () -> BuiltinOperatorsTest.<Object, WindowSumConfig>builtIn(BuiltinOperators.WINDOW_SUM,
                        new WindowSumConfig(50L)), 137);
    }

    @Test
    void windowSumEmitsAPendingWindowOnlyFromTheRestoredDriver() {
        PeTestDriver<Object> first = BuiltinOperatorsTest.<Object, WindowSumConfig>builtIn(
                BuiltinOperators.WINDOW_SUM, new WindowSumConfig(10L)).build();
        first.send("a", 2L, 1).send("a", 0.5, 2).send("b", 4L, 3);
        OperatorSnapshot snapshot = first.snapshot();

        PeTestDriver<Object> restored = BuiltinOperatorsTest.<Object, WindowSumConfig>builtIn(
                BuiltinOperators.WINDOW_SUM, new WindowSumConfig(10L)).restoreFrom(snapshot).build();
        restored.advanceWatermark(9);

        assertThat(first.outputs()).isEmpty();
        assertThat(restored.outputs()).containsExactly(Event.of("a", 2.5, 9), Event.of("b", 4L, 9));
    }

    @Test
    void latestValueSinkKeepsEveryKeysLatestValueOfAnyBuiltInTypeAcrossRestore() {
        assertContinuesAsUninterrupted(BuiltinOperators.LATEST_VALUE_SINK,
                () -> BuiltinOperatorsTest.<Void, NoConfig>builtIn(BuiltinOperators.LATEST_VALUE_SINK,
                        new NoConfig()), 151);
    }

    @Test
    void latestValueSinkRestoresStringsAndBytes() {
        PeTestDriver<Void> first = BuiltinOperatorsTest.<Void, NoConfig>builtIn(BuiltinOperators.LATEST_VALUE_SINK,
                new NoConfig()).build();
        first.send("s", "wört").send("b", new byte[] {1, 2}).send("t", true);

        PeTestDriver<Void> restored = BuiltinOperatorsTest.<Void, NoConfig>builtIn(
                BuiltinOperators.LATEST_VALUE_SINK, new NoConfig()).restoreFrom(first.snapshot()).build();

        assertThat(restored.state("latest", "s")).contains("wört");
        assertThat((byte[]) restored.state("latest", "b").orElseThrow()).containsExactly(1, 2);
        assertThat(restored.state("latest", "t")).contains(true);
    }

    @Test
    void latestValueSinkSnapshotsValuesOfRegisteredUserTypes() {
        PeTestDriver<Void> first = BuiltinOperatorsTest.<Void, NoConfig>builtIn(BuiltinOperators.LATEST_VALUE_SINK,
                new NoConfig()).codec(PeTestDriverTest.POINT).build();
        first.send("p", new PeTestDriverTest.Point(3, -4)).send("n", 7L);

        PeTestDriver<Void> restored = BuiltinOperatorsTest.<Void, NoConfig>builtIn(
                BuiltinOperators.LATEST_VALUE_SINK, new NoConfig()).codec(PeTestDriverTest.POINT)
                .restoreFrom(first.snapshot()).build();

        assertThat(restored.state("latest", "p")).contains(new PeTestDriverTest.Point(3, -4));
        assertThat(restored.state("latest", "n")).contains(7L);
    }
}
