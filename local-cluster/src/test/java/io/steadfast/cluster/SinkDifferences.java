package io.steadfast.cluster;

import io.steadfast.runtime.topology.OperatorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * How the final values of a sink differ from a reference run's, key by key.
 *
 * @param missing keys the reference has and the sink has not
 * @param unexpected keys the sink has and the reference has not
 * @param differing keys both have, with the sink's value and the reference's
 */
record SinkDifferences(OperatorId sink, int referenceKeys, List<String> missing, List<String> unexpected,
                       SortedMap<String, long[]> differing) {

    private static final int SHOWN_KEYS = 8;

    static SinkDifferences between(OperatorId sink, Map<String, Long> actual, Map<String, Long> reference) {
        List<String> missing = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        SortedMap<String, long[]> differing = new TreeMap<>();
        new TreeMap<>(reference).forEach((key, expected) -> {
            Long value = actual.get(key);
            if (value == null) {
                missing.add(key);
            } else if (!value.equals(expected)) {
                differing.put(key, new long[] {value, expected});
            }
        });
        new TreeMap<>(actual).keySet().stream().filter(key -> !reference.containsKey(key)).forEach(unexpected::add);
        return new SinkDifferences(sink, reference.size(), missing, unexpected, differing);
    }

    boolean isEmpty() {
        return wrongKeys() == 0;
    }

    int wrongKeys() {
        return missing.size() + unexpected.size() + differing.size();
    }

    /** How many differing keys are off by each amount (the sink's value minus the reference's): for counts. */
    SortedMap<Long, Long> offsets() {
        return differing.values().stream()
                .collect(Collectors.groupingBy(values -> values[0] - values[1], TreeMap::new, Collectors.counting()));
    }

    /** e.g. {@code counts: 12 of 500 keys wrong (0 missing, 0 unexpected, 12 differing), e.g. key-7 = 1441 (reference 1440), ...}. */
    String describe() {
        if (isEmpty()) {
            return sink + ": all " + referenceKeys + " keys equal the reference run's";
        }
        StringBuilder line = new StringBuilder().append(sink).append(": ").append(wrongKeys()).append(" of ")
                .append(referenceKeys).append(" keys wrong (").append(missing.size()).append(" missing, ")
                .append(unexpected.size()).append(" unexpected, ").append(differing.size()).append(" differing)");
        if (!differing.isEmpty()) {
            line.append(", e.g. ").append(differing.entrySet().stream().limit(SHOWN_KEYS)
                    .map(e -> e.getKey() + " = " + e.getValue()[0] + " (reference " + e.getValue()[1] + ")")
                    .collect(Collectors.joining(", ")));
        }
        if (!missing.isEmpty()) {
            line.append("; missing ").append(String.join(", ", missing.subList(0, Math.min(SHOWN_KEYS, missing.size()))));
        }
        if (!unexpected.isEmpty()) {
            line.append("; unexpected ")
                    .append(String.join(", ", unexpected.subList(0, Math.min(SHOWN_KEYS, unexpected.size()))));
        }
        return line.toString();
    }
}
