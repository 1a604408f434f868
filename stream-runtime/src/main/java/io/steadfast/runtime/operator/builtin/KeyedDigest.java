package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.state.ValueState;

/**
 * Keeps per key a 64-bit hash chain of the values it has taken in, in arrival order, and emits the new digest (a
 * Long) for each event. Unlike a count or a sum, the digest depends on the order of a key's values, so it shows
 * what an order-insensitive operator hides: a value taken in twice, lost, or taken in out of order (two copies of
 * a task mixing their input, a replay in another order).
 *
 * <p>The chain is fixed, so that the same values in the same order give the same digest on every host and JVM:
 * <pre>
 *   digest(first value)  = mix(hash(value))                       (the digest before any value is 0)
 *   digest(next value)   = mix(digest * 31 + hash(value))          (arithmetic modulo 2^64)
 *   mix(z)               = SplitMix64's finaliser: z ^= z >>> 30; z *= 0xbf58476d1ce4e5b9;
 *                          z ^= z >>> 27; z *= 0x94d049bb133111eb; z ^= z >>> 31
 *   hash(value)          = mix(bits + tag * 0x9e3779b97f4a7c15), by type:
 *                          null 0 (hash 0); Long and Integer tag 1, bits the long value (so 2 and 2L hash
 *                          alike); Double tag 2, bits Double.doubleToLongBits; Boolean tag 3, bits 1 or 0;
 *                          String tag 4, bits the 64-bit FNV-1a hash of its UTF-16 chars; byte[] tag 5, bits
 *                          the 64-bit FNV-1a hash of its bytes
 * </pre>
 * No {@code Object.hashCode} is involved. Values of other types (registered user codecs) are rejected with an
 * exception that says to put a map operator in front.
 */
public final class KeyedDigest implements ProcessingElement<Object, Long> {

    public static final String STATE = "digest";

    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final ValueState<Long> digest;

    public KeyedDigest(PeInit<NoConfig> init) {
        this.digest = init.state().valueState(STATE, Codecs.LONG);
    }

    @Override
    public void process(Event<Object> event, PeContext<Long> context) {
        long next = next(digest.valueOr(0L), hashOf(event.key(), event.value()));
        digest.update(next);
        context.emit(next);
    }

    /** The digest after {@code values}, taken in this order by one key: what the operator emits last. */
    public static long digestOf(Iterable<?> values) {
        long digest = 0;
        for (Object value : values) {
            digest = next(digest, hashOf(null, value));
        }
        return digest;
    }

    /** The digest after a value whose {@link #hashOf hash} is {@code valueHash} follows {@code digest}. */
    static long next(long digest, long valueHash) {
        return mix(digest * 31 + valueHash);
    }

    /** The hash of one value, by the rules in the class comment; {@code key} (nullable) only names it in errors. */
    static long hashOf(String key, Object value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof Long || value instanceof Integer) {
            return tagged(1, ((Number) value).longValue());
        }
        if (value instanceof Double d) {
            return tagged(2, Double.doubleToLongBits(d));
        }
        if (value instanceof Boolean b) {
            return tagged(3, b ? 1 : 0);
        }
        if (value instanceof String s) {
            long h = FNV_OFFSET_BASIS;
            for (int i = 0; i < s.length(); i++) {
                h = (h ^ s.charAt(i)) * FNV_PRIME;
            }
            return tagged(4, h);
        }
        if (value instanceof byte[] bytes) {
            long h = FNV_OFFSET_BASIS;
            for (byte b : bytes) {
                h = (h ^ (b & 0xff)) * FNV_PRIME;
            }
            return tagged(5, h);
        }
        throw new IllegalArgumentException("keyed-digest takes values of the built-in types (null, Long, Integer,"
                + " Double, Boolean, String, byte[]), but " + (key == null ? "a value" : "key '" + key + "'") + " got "
                + value.getClass().getName()
                + "; put a map operator in front that turns values into one of them (e.g. to-string)");
    }

    private static long tagged(int tag, long bits) {
        return mix(bits + tag * GOLDEN_GAMMA);
    }

    /** SplitMix64's finaliser (Steele, Lea and Flood 2014): a bijection of 64-bit values that spreads every bit. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
