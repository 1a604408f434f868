package io.steadfast.examples.scoring;

/** The direct version: the key's weight as a stream sum, the bucket by {@code floorMod}, the closed form n(n+1)/2. */
final class FormulaScore implements ScoreFunction {

    @Override
    public long score(String key, long value) {
        long weight = key.chars().asLongStream().sum();
        long bucket = Math.floorMod(weight + VALUE_WEIGHT * value, BUCKETS);
        return bucket * (bucket + 1) / 2;
    }
}
