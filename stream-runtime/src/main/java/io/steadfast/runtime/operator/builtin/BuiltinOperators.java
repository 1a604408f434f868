package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.operator.ConfigException;
import io.steadfast.api.operator.FilterPredicate;
import io.steadfast.api.operator.MapFunction;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.voting.VoteConfig;
import io.steadfast.runtime.voting.VotePe;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** The operator types every host provides. Map and filter resolve their function among the given ones. */
public final class BuiltinOperators {

    public static final String GENERATOR = "generator";
    public static final String KEYED_COUNT = "keyed-count";
    public static final String KEYED_DIGEST = "keyed-digest";
    public static final String WINDOW_SUM = "window-sum";
    public static final String MAP = "map";
    public static final String FILTER = "filter";
    public static final String LOG_SINK = "log-sink";
    public static final String LATEST_VALUE_SINK = "latest-value-sink";
    /** The operator that votes on the versions of an N-version operator; the planner adds it, specs do not name it. */
    public static final String VOTE = "vote";

    private BuiltinOperators() {
    }

    public static List<OperatorType<?>> types(Map<String, MapFunction> functions,
                                              Map<String, FilterPredicate> predicates) {
        return List.of(
                OperatorType.source(GENERATOR, GeneratorConfig.class, GeneratorSource::new,
                        "Deterministic, replayable events: count, keys, ratePerSecond"),
                OperatorType.processor(KEYED_COUNT, NoConfig.class, KeyedCount::new,
                        "Counts events per key and emits each new count"),
                OperatorType.processor(KEYED_DIGEST, NoConfig.class, KeyedDigest::new,
                        "Chains a 64-bit hash of each key's values in arrival order and emits each new digest"),
                OperatorType.processor(WINDOW_SUM, WindowSumConfig.class, WindowSum::new,
                        "Sums values per key over tumbling event-time windows of windowMillis"),
                OperatorType.processor(MAP, MapConfig.class,
                        init -> new MapElement(functions.get(init.config().function())),
                        "Applies the named map function to each value").withSharedInstance()
                        .withValidator(config -> requireKnown("function", config.function(), functions)),
                OperatorType.processor(FILTER, FilterConfig.class,
                        init -> new FilterElement(predicates.get(init.config().predicate())),
                        "Keeps the events for which the named predicate holds").withSharedInstance()
                        .withValidator(config -> requireKnown("predicate", config.predicate(), predicates)),
                OperatorType.sink(LOG_SINK, LogSinkConfig.class, LogSink::new,
                        "Logs one of every N events").withSharedInstance(),
                OperatorType.sink(LATEST_VALUE_SINK, NoConfig.class, LatestValueSink::new,
                        "Keeps the latest value per key, queryable over REST"),
                OperatorType.processor(VOTE, VoteConfig.class, VotePe::new,
                        "Votes on the outputs of the versions of an N-version operator (added by the planner)")
                        .withInstancePerTask());
    }

    private static void requireKnown(String field, String name, Map<String, ?> known) {
        if (!known.containsKey(name)) {
            throw new ConfigException(field, field + " '" + name + "' is not registered; known: "
                    + String.join(", ", new TreeSet<>(known.keySet())));
        }
    }
}
