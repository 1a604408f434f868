package io.steadfast.cluster.progress;

import io.steadfast.protocol.router.OperatorResults;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** Summarises a sink's final values: number of keys, a few sample values and, for numbers, the total. */
public final class ResultsSummary {

    private static final Pattern TRAILING_NUMBER = Pattern.compile("^(.*?)(\\d+)$");

    /** Orders {@code key-2} before {@code key-10}. */
    static final Comparator<String> NATURAL_KEY_ORDER = Comparator.comparing(ResultsSummary::prefix)
            .thenComparingLong(ResultsSummary::number).thenComparing(Comparator.naturalOrder());

    private ResultsSummary() {
    }

    public static String format(OperatorResults results, int samples) {
        Map<String, JsonNode> values = results.values();
        List<String> keys = values.keySet().stream().sorted(NATURAL_KEY_ORDER).toList();
        boolean numeric = !values.isEmpty() && values.values().stream().allMatch(JsonNode::isNumber);
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "results of %s/%s: %,d keys", results.topology(), results.operator(), keys.size()));
        if (numeric) {
            long total = values.values().stream().mapToLong(JsonNode::asLong).sum();
            out.append(String.format(Locale.ROOT, ", total %,d", total));
        }
        out.append(System.lineSeparator());
        for (String key : keys.subList(0, Math.min(samples, keys.size()))) {
            out.append("  ").append(key).append(" = ").append(values.get(key)).append(System.lineSeparator());
        }
        if (keys.size() > samples) {
            out.append("  ... ").append(keys.size() - samples).append(" more").append(System.lineSeparator());
        }
        return out.toString();
    }

    private static String prefix(String key) {
        Matcher m = TRAILING_NUMBER.matcher(key);
        return m.matches() ? m.group(1) : key;
    }

    private static long number(String key) {
        Matcher m = TRAILING_NUMBER.matcher(key);
        if (!m.matches() || m.group(2).length() > 18) {
            return -1;
        }
        return Long.parseLong(m.group(2));
    }
}
