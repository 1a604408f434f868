package io.steadfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.operator.NoConfig;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.operator.builtin.KeyedDigest;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code keyed-digest} through the production execution path: a per-key hash chain that tells apart the same values
 * taken in another order, twice, or not at all, and that a restored task continues from its snapshot.
 */
class KeyedDigestTest {

    /** The digest of 1L, 2L, 3L; see {@link #digestsArePinnedToTheDocumentedFunction}. */
    private static final long PINNED_LONGS = 0x2058213d73785cd0L;
    /** The digest of "wört", 2.5, false, null, {1, -1}. */
    private static final long PINNED_MIXED = 0xede997ee51d85b64L;

    private static PeTestDriver<Long> digest() {
        return BuiltinOperatorsTest.<Long, NoConfig>builtIn(BuiltinOperators.KEYED_DIGEST, new NoConfig()).build();
    }

    /** The last digest the driver emitted for {@code key} after taking in {@code values} under it, in order. */
    private static long digestAfter(List<?> values) {
        try (PeTestDriver<Long> driver = digest()) {
            values.forEach(value -> driver.send("k", value));
            return driver.latestOutputByKey().get("k");
        }
    }

    @Test
    void theSameValuesInTheSameOrderGiveTheSameDigest() {
        List<Object> values = List.of(1L, "two", 3.0, true, 5);

        assertThat(digestAfter(values)).isEqualTo(digestAfter(values)).isEqualTo(KeyedDigest.digestOf(values));
    }

    @Test
    void theSameValuesInAnotherOrderGiveAnotherDigest() {
        assertThat(digestAfter(List.of(1L, 2L, 3L))).isNotEqualTo(digestAfter(List.of(1L, 3L, 2L)))
                .isNotEqualTo(digestAfter(List.of(2L, 1L, 3L)))
                .isNotEqualTo(digestAfter(List.of(3L, 2L, 1L)));
        assertThat(digestAfter(List.of("a", "b"))).isNotEqualTo(digestAfter(List.of("b", "a")));
    }

    @Test
    void aValueTakenInTwiceOrLostChangesTheDigest() {
        long exact = digestAfter(List.of(1L, 2L, 3L));

        assertThat(digestAfter(List.of(1L, 2L, 2L, 3L))).isNotEqualTo(exact);
        assertThat(digestAfter(List.of(1L, 3L))).isNotEqualTo(exact);
        assertThat(digestAfter(List.of(1L, 2L, 3L, 3L))).isNotEqualTo(exact);
    }

    @Test
    void emitsTheNewDigestOfItsKeyForEachEventWhateverOtherKeysTakeIn() {
        try (PeTestDriver<Long> interleaved = digest()) {
            interleaved.send("a", 1L).send("b", 7L).send("a", 2L).send("b", 8L).send("a", 3L);

            assertThat(interleaved.outputs()).extracting(e -> e.key()).containsExactly("a", "b", "a", "b", "a");
            assertThat(interleaved.outputValues()).containsExactly(KeyedDigest.digestOf(List.of(1L)),
                    KeyedDigest.digestOf(List.of(7L)), KeyedDigest.digestOf(List.of(1L, 2L)),
                    KeyedDigest.digestOf(List.of(7L, 8L)), KeyedDigest.digestOf(List.of(1L, 2L, 3L)));
            assertThat(interleaved.state(KeyedDigest.STATE, "a")).contains(KeyedDigest.digestOf(List.of(1L, 2L, 3L)));
        }
    }

    /**
     * The chain is a fixed function (see {@link KeyedDigest}'s class comment), never {@code Object.hashCode}: these
     * values must not change between JVMs, runs or releases, or digests of two hosts could not be compared. They were
     * computed from the class comment's definition by a separate implementation (Python), not by this code.
     */
    @Test
    void digestsArePinnedToTheDocumentedFunction() {
        assertThat(KeyedDigest.digestOf(List.of())).isZero();
        assertThat(KeyedDigest.digestOf(List.of(1L, 2L, 3L))).isEqualTo(PINNED_LONGS);
        assertThat(KeyedDigest.digestOf(Arrays.asList("wört", 2.5, false, null, new byte[] {1, -1})))
                .isEqualTo(PINNED_MIXED);
    }

    @Test
    void integralValuesDigestByTheirValueWhateverTheirTypeAndOtherTypesApart() {
        assertThat(digestAfter(List.of(2))).isEqualTo(digestAfter(List.of(2L)));
        assertThat(digestAfter(List.of(2.0))).isNotEqualTo(digestAfter(List.of(2L)));
        assertThat(digestAfter(List.of("2"))).isNotEqualTo(digestAfter(List.of(2L)));
        assertThat(digestAfter(List.of(true))).isNotEqualTo(digestAfter(List.of(1L)));
        assertThat(digestAfter(Arrays.asList((Object) null))).isNotEqualTo(digestAfter(List.of(0L)));
    }

    @Test
    void aRestoredDigestContinuesTheChainAsIfNeverStopped() {
        List<Long> uninterrupted;
        try (PeTestDriver<Long> driver = digest()) {
            feed(driver, 0, 100);
            uninterrupted = driver.outputValues();
        }

        List<Long> actual = new ArrayList<>();
        OperatorSnapshot snapshot;
        try (PeTestDriver<Long> first = digest()) {
            feed(first, 0, 40);
            actual.addAll(first.outputValues());
            snapshot = OperatorSnapshot.fromBytes(first.snapshot().toBytes());
            feed(first, 40, 55); // lost with the failure
        }
        try (PeTestDriver<Long> restored = BuiltinOperatorsTest.<Long, NoConfig>builtIn(BuiltinOperators.KEYED_DIGEST,
                new NoConfig()).restoreFrom(snapshot).build()) {
            feed(restored, 40, 100);
            actual.addAll(restored.outputValues());
        }

        assertThat(snapshot.operatorType()).isEqualTo(BuiltinOperators.KEYED_DIGEST);
        assertThat(actual).isEqualTo(uninterrupted);
    }

    @Test
    void aRestoredDigestThatTakesInAValueAgainDiffersFromTheExactOne() {
        OperatorSnapshot snapshot;
        long exact;
        try (PeTestDriver<Long> first = digest()) {
            first.send("k", 1L).send("k", 2L);
            snapshot = first.snapshot();
            first.send("k", 3L);
            exact = first.latestOutputByKey().get("k");
        }
        try (PeTestDriver<Long> restored = BuiltinOperatorsTest.<Long, NoConfig>builtIn(BuiltinOperators.KEYED_DIGEST,
                new NoConfig()).restoreFrom(snapshot).build()) {
            restored.send("k", 2L).send("k", 3L); // 2 replayed although the snapshot had taken it in

            assertThat(restored.latestOutputByKey().get("k")).isNotEqualTo(exact);
        }
    }

    @Test
    void rejectsValuesOfUserTypesNamingTheKeyAndWhatToDo() {
        try (PeTestDriver<Long> driver = BuiltinOperatorsTest.<Long, NoConfig>builtIn(BuiltinOperators.KEYED_DIGEST,
                new NoConfig()).codec(PeTestDriverTest.POINT).build()) {
            assertThatThrownBy(() -> driver.send("p", new PeTestDriverTest.Point(1, 2)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("keyed-digest takes values of the built-in types")
                    .hasMessageContaining("key 'p' got " + PeTestDriverTest.Point.class.getName())
                    .hasMessageContaining("put a map operator in front");
        }
    }

    /** Event i: key i % 5, a value that varies in type. */
    private static void feed(PeTestDriver<Long> driver, int from, int to) {
        for (int i = from; i < to; i++) {
            Object value = switch (i % 3) {
                case 0 -> (long) i;
                case 1 -> "v" + i;
                default -> i / 3.0;
            };
            driver.send("key-" + (i % 5), value);
        }
    }
}
