package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the events of an upstream operator are spread over the subtasks of a downstream operator.
 *
 * <p>Every partitioning connects each upstream subtask to every downstream subtask (a full bipartite set of
 * channels); the partitioning decides, per event, which of those channels carry it. Upstream and downstream
 * parallelism may differ for every partitioning, {@link #KEY} included: the key decides the downstream subtask
 * through {@code io.steadfast.runtime.plan.KeyPartitioner}, whatever the upstream parallelism is. So an input
 * makes upstream × downstream parallelism channels, which {@link TopologyLimits#maxChannels()} bounds.
 *
 * <p>A keyed operator (one that keeps state per key, {@link OperatorCatalog#isKeyed}) must read every input by
 * {@link #KEY}: the others would spread one key over several of its subtasks.
 *
 * <p>JSON names are {@code "key"}, {@code "round-robin"} and {@code "broadcast"}; the upper-case and underscore
 * forms ({@code "ROUND_ROBIN"}) are accepted too.
 */
public enum Partitioning {
    /** Each event goes to the subtask its key hashes to, so all events of one key meet in one subtask. */
    KEY("key"),
    /** Each event goes to the next downstream subtask in turn. */
    ROUND_ROBIN("round-robin"),
    /** Each event goes to every downstream subtask. */
    BROADCAST("broadcast");

    private final String jsonName;

    Partitioning(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name used in topology JSON. */
    @JsonValue
    public String jsonName() {
        return jsonName;
    }

    /**
     * Parses a JSON name, ignoring case and treating {@code _} like {@code -}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    @JsonCreator
    public static Partitioning fromJson(String name) {
        if (name != null) {
            String normalised = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
            for (Partitioning partitioning : values()) {
                if (partitioning.jsonName.equals(normalised)) {
                    return partitioning;
                }
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a partitioning; use one of " + namesList());
    }

    static String namesList() {
        return Arrays.stream(values()).map(Partitioning::jsonName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
