package io.steadfast.runtime.plan;

import java.nio.charset.StandardCharsets;

/**
 * Decides which downstream subtask owns a key under {@link io.steadfast.runtime.topology.Partitioning#KEY}.
 *
 * <p>The hash is MurmurHash3 x86 32-bit with seed 0 over the key's UTF-8 bytes, reduced with
 * {@link Math#floorMod}. It depends on nothing JVM-specific, so every host, JVM and release computes the same
 * subtask for a key. <strong>It decides where keyed state lives: changing it breaks the restore of every
 * existing snapshot.</strong> The tests pin known values to keep it from changing by accident.
 */
public final class KeyPartitioner {

    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private KeyPartitioner() {
    }

    /**
     * @param key the event key, not null
     * @param parallelism the downstream operator's parallelism, at least 1
     * @return the subtask index, in {@code 0..parallelism-1}
     */
    public static int subtaskFor(String key, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, was " + parallelism);
        }
        if (parallelism == 1) {
            return 0;
        }
        int hash = isAscii(key) ? murmur3Ascii(key) : murmur3(key.getBytes(StandardCharsets.UTF_8));
        return Math.floorMod(hash, parallelism);
    }

    private static boolean isAscii(String key) {
        for (int i = 0, n = key.length(); i < n; i++) {
            if (key.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** {@link #murmur3} of an ASCII string's bytes, read from its chars without encoding it first. */
    static int murmur3Ascii(String key) {
        int length = key.length();
        int hash = 0;
        int blocks = length / 4;
        for (int i = 0; i < blocks; i++) {
            int offset = i * 4;
            int k = key.charAt(offset) | key.charAt(offset + 1) << 8 | key.charAt(offset + 2) << 16
                    | key.charAt(offset + 3) << 24;
            hash ^= mixK(k);
            hash = Integer.rotateLeft(hash, 13) * 5 + 0xe6546b64;
        }
        int tail = blocks * 4;
        int k = 0;
        switch (length & 3) {
            case 3:
                k ^= key.charAt(tail + 2) << 16;
            // fall through
            case 2:
                k ^= key.charAt(tail + 1) << 8;
            // fall through
            case 1:
                k ^= key.charAt(tail);
                hash ^= mixK(k);
                break;
            default:
                break;
        }
        hash ^= length;
        return finalise(hash);
    }

    /** MurmurHash3_x86_32 with seed 0. */
    static int murmur3(byte[] data) {
        int hash = 0;
        int blocks = data.length / 4;
        for (int i = 0; i < blocks; i++) {
            int offset = i * 4;
            int k = (data[offset] & 0xff) | (data[offset + 1] & 0xff) << 8
                    | (data[offset + 2] & 0xff) << 16 | (data[offset + 3] & 0xff) << 24;
            hash ^= mixK(k);
            hash = Integer.rotateLeft(hash, 13) * 5 + 0xe6546b64;
        }
        int tail = blocks * 4;
        int k = 0;
        switch (data.length & 3) {
            case 3:
                k ^= (data[tail + 2] & 0xff) << 16;
            // fall through
            case 2:
                k ^= (data[tail + 1] & 0xff) << 8;
            // fall through
            case 1:
                k ^= data[tail] & 0xff;
                hash ^= mixK(k);
                break;
            default:
                break;
        }
        hash ^= data.length;
        return finalise(hash);
    }

    private static int mixK(int k) {
        return Integer.rotateLeft(k * C1, 15) * C2;
    }

    private static int finalise(int hash) {
        hash ^= hash >>> 16;
        hash *= 0x85ebca6b;
        hash ^= hash >>> 13;
        hash *= 0xc2b2ae35;
        hash ^= hash >>> 16;
        return hash;
    }
}
