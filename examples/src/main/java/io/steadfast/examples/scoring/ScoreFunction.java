package io.steadfast.examples.scoring;

/**
 * The score of one input, defined once here and computed three different ways by the versions of the scoring
 * operator, so that exact-majority voting can compare their results with equality:
 * <pre>
 *   weight(key) = the sum of the key's UTF-16 chars
 *   bucket      = (weight(key) + {@value #VALUE_WEIGHT} * value) mod {@value #BUCKETS}, the residue in 0..1023
 *                 (64-bit arithmetic that wraps on overflow keeps the residue, as 1024 divides 2^64)
 *   score       = bucket * (bucket + 1) / 2, the bucket-th triangular number: 0..523,776
 * </pre>
 * Implementations are pure, deterministic and thread-safe.
 */
@FunctionalInterface
interface ScoreFunction {

    /** How many buckets the inputs fall into: a power of two, so that a mask takes the residue too. */
    int BUCKETS = 1024;

    /** What one unit of value weighs against one unit of key weight. */
    long VALUE_WEIGHT = 37;

    /** The score of an input with this key and value. */
    long score(String key, long value);
}
