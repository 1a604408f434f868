package io.steadfast.examples.scoring;

/**
 * The table version: the bucket by a bit mask, its score looked up in a table of triangular numbers built once by
 * running sums (no multiplication or division per input).
 */
final class TableScore implements ScoreFunction {

    private static final long[] TRIANGULAR = triangularNumbers();

    private static long[] triangularNumbers() {
        long[] table = new long[BUCKETS];
        for (int n = 1; n < BUCKETS; n++) {
            table[n] = table[n - 1] + n;
        }
        return table;
    }

    @Override
    public long score(String key, long value) {
        long weight = 0;
        for (char c : key.toCharArray()) {
            weight += c;
        }
        int bucket = (int) ((weight + value * VALUE_WEIGHT) & (BUCKETS - 1));
        return TRIANGULAR[bucket];
    }
}
