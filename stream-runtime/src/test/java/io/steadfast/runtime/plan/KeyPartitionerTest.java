package io.steadfast.runtime.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyPartitionerTest {

    @Test
    void hashesLikeReferenceMurmur3() {
        // Reference values of MurmurHash3_x86_32, seed 0 (also Guava's murmur3_32_fixed).
        assertThat(KeyPartitioner.murmur3(new byte[0])).isEqualTo(0);
        assertThat(KeyPartitioner.murmur3(bytes("hello"))).isEqualTo(0x248bfa47);
        assertThat(KeyPartitioner.murmur3(bytes("The quick brown fox jumps over the lazy dog"))).isEqualTo(0x2e4ff723);
        assertThat(KeyPartitioner.murmur3(bytes("abc"))).isEqualTo(0xb3dd93fa);
        assertThat(KeyPartitioner.murmur3(bytes("ü€𝄞"))).isEqualTo(0x9d71991d);
    }

    @Test
    void keepsPinnedSubtasksSoThatStateStaysWhereItWas() {
        assertThat(KeyPartitioner.subtaskFor("key-42", 7)).isEqualTo(Math.floorMod(0x04df6717, 7));
        assertThat(KeyPartitioner.subtaskFor("hello", 16)).isEqualTo(0x248bfa47 & 15);
    }

    @Test
    void givesTheSameSubtaskForTheSameKeyEveryTime() {
        for (int i = 0; i < 1000; i++) {
            String key = "user-" + i;
            assertThat(KeyPartitioner.subtaskFor(key, 13)).isEqualTo(KeyPartitioner.subtaskFor(new String(key), 13));
        }
    }

    @Test
    void staysWithinRangeForNegativeHashes() {
        for (int i = 0; i < 10_000; i++) {
            assertThat(KeyPartitioner.subtaskFor("k" + i, 3)).isBetween(0, 2);
        }
        assertThat(KeyPartitioner.subtaskFor("anything", 1)).isZero();
    }

    @Test
    void spreadsTenThousandKeysEvenlyOverSixteenSubtasks() {
        int[] counts = new int[16];
        for (int i = 0; i < 10_000; i++) {
            counts[KeyPartitioner.subtaskFor("key-" + i, 16)]++;
        }
        double expected = 10_000 / 16.0;
        double chiSquare = 0;
        for (int count : counts) {
            assertThat(count).isBetween((int) (expected * 0.85), (int) (expected * 1.15));
            chiSquare += (count - expected) * (count - expected) / expected;
        }
        assertThat(chiSquare).as("chi-square, 15 degrees of freedom; 37.7 is p = 0.001").isLessThan(37.7);
    }

    @Test
    void rejectsParallelismBelowOne() {
        assertThatThrownBy(() -> KeyPartitioner.subtaskFor("k", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hashesAsciiKeysFromTheirCharsExactlyAsFromTheirBytes() {
        for (String key : new String[] {"", "a", "ab", "abc", "abcd", "key-12345", "user:0042/x", "~!@#$%^&*()_+"}) {
            assertThat(KeyPartitioner.murmur3Ascii(key)).as(key).isEqualTo(KeyPartitioner.murmur3(bytes(key)));
        }
        for (int i = 0; i < 5_000; i++) {
            String key = "k" + i * 7919;
            assertThat(KeyPartitioner.murmur3Ascii(key)).isEqualTo(KeyPartitioner.murmur3(bytes(key)));
        }
    }

    @Test
    void partitionsNonAsciiKeysByTheirUtf8Bytes() {
        String key = "schl\u00fcssel-\u00e9";
        assertThat(KeyPartitioner.subtaskFor(key, 7)).isEqualTo(Math.floorMod(KeyPartitioner.murmur3(bytes(key)), 7));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
