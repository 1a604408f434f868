package io.steadfast.runtime.topology;

import io.steadfast.api.operator.OperatorRole;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * An in-memory {@link OperatorCatalog} for tests: each type has a role, the config fields it accepts and the
 * ones it requires. Integer fields must be non-negative integers; other fields must be strings. Processors and
 * sinks are keyed unless {@link #shared} says otherwise, as {@link io.steadfast.api.operator.OperatorType}s are.
 */
public final class FakeOperatorCatalog implements OperatorCatalog {

    private record Type(OperatorRole role, Set<String> integerFields, Set<String> stringFields, Set<String> required,
                        boolean keyed) {
    }

    private final Map<String, Type> types = new LinkedHashMap<>();

    /** The operator types the runtime is planned to provide, with their config fields. */
    public static FakeOperatorCatalog builtIns() {
        return new FakeOperatorCatalog()
                .with("generator", OperatorRole.SOURCE,
                        Set.of("count", "keys", "ratePerSecond", "startTime", "eventTimeStepMillis", "seed"),
                        Set.of(), Set.of())
                .with("keyed-count", OperatorRole.PROCESSOR, Set.of(), Set.of(), Set.of())
                .with("window-sum", OperatorRole.PROCESSOR, Set.of("windowMillis"), Set.of(), Set.of("windowMillis"))
                .with("map", OperatorRole.PROCESSOR, Set.of(), Set.of("function"), Set.of("function"))
                .with("filter", OperatorRole.PROCESSOR, Set.of(), Set.of("predicate"), Set.of("predicate"))
                .with("log-sink", OperatorRole.SINK, Set.of(), Set.of(), Set.of())
                .with("latest-value-sink", OperatorRole.SINK, Set.of(), Set.of(), Set.of())
                .shared("map").shared("filter").shared("log-sink");
    }

    public FakeOperatorCatalog with(String name, OperatorRole role, Set<String> integerFields,
                                    Set<String> stringFields, Set<String> required) {
        types.put(name, new Type(role, integerFields, stringFields, required, role != OperatorRole.SOURCE));
        return this;
    }

    /** Makes a type one whose single instance serves every key (not keyed). */
    public FakeOperatorCatalog shared(String name) {
        Type type = types.get(name);
        types.put(name, new Type(type.role(), type.integerFields(), type.stringFields(), type.required(), false));
        return this;
    }

    @Override
    public SortedSet<String> typeNames() {
        return new TreeSet<>(types.keySet());
    }

    @Override
    public Optional<OperatorRole> roleOf(String type) {
        return Optional.ofNullable(types.get(type)).map(Type::role);
    }

    @Override
    public boolean isKeyed(String type) {
        return types.containsKey(type) && types.get(type).keyed();
    }

    @Override
    public List<ConfigProblem> checkConfig(String typeName, JsonNode config) {
        Type type = types.get(typeName);
        List<ConfigProblem> problems = new ArrayList<>();
        for (String field : config.propertyNames()) {
            JsonNode value = config.get(field);
            if (type.integerFields().contains(field)) {
                if (!value.isIntegralNumber() || value.asLong() < 0) {
                    problems.add(new ConfigProblem(field, "must be a non-negative integer, was " + value));
                }
            } else if (type.stringFields().contains(field)) {
                if (!value.isString()) {
                    problems.add(new ConfigProblem(field, "must be a string, was " + value));
                }
            } else {
                problems.add(new ConfigProblem(field, "is not a setting of " + typeName));
            }
        }
        for (String field : new TreeSet<>(type.required())) {
            if (!config.has(field)) {
                problems.add(new ConfigProblem(field, "is required by " + typeName));
            }
        }
        return problems;
    }
}
