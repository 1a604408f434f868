package io.steadfast.cluster;

import java.util.Map;
import java.util.TreeMap;

/** The topologies the end-to-end tests deploy, as JSON specs, and what the generators they start with emit. */
final class TestTopologies {

    private TestTopologies() {
    }

    /**
     * {@code source} (generator, parallelism 2) → {@code count} (keyed-count) → {@code sink} (latest-value-sink,
     * parallelism 2), every edge by key.
     *
     * @param ratePerSecond the generator's pace; 0 for as fast as it can
     * @param countParallelism the count operator's parallelism (0 makes the spec invalid)
     */
    static String wordCount(String id, int count, int keys, int ratePerSecond, int countParallelism) {
        return """
                {"id": "%s",
                 "operators": [
                   {"id": "source", "type": "generator", "parallelism": 2,
                    "config": {"count": %d, "keys": %d, "ratePerSecond": %d}},
                   {"id": "count", "type": "keyed-count", "parallelism": %d,
                    "inputs": [{"from": "source", "partitioning": "key"}]},
                   {"id": "sink", "type": "latest-value-sink", "parallelism": 2,
                    "inputs": [{"from": "count", "partitioning": "key"}]}
                 ]}
                """.formatted(id, count, keys, ratePerSecond, countParallelism);
    }

    /** {@link #wordCount(String, int, int, int, int)} with a count parallelism of 2. */
    static String wordCount(String id, int count, int keys, int ratePerSecond) {
        return wordCount(id, count, keys, ratePerSecond, 2);
    }

    /**
     * The generator config members that pace it from now at {@code ratePerSecond}, to append after its last member;
     * empty (unpaced) for 0.
     */
    static String pacedFromNow(int ratePerSecond) {
        return ratePerSecond == 0 ? "" : ", \"ratePerSecond\": %d, \"pacedSince\": %d"
                .formatted(ratePerSecond, System.currentTimeMillis());
    }

    /** The generator's distribution: key-k receives count/keys events, plus one for the first count%keys keys. */
    static Map<String, Long> expectedCounts(int count, int keys) {
        Map<String, Long> expected = new TreeMap<>();
        for (int k = 0; k < keys; k++) {
            expected.put("key-" + k, (long) (count / keys + (k < count % keys ? 1 : 0)));
        }
        return expected;
    }
}
