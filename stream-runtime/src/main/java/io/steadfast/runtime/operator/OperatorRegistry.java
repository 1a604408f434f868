package io.steadfast.runtime.operator;

import io.steadfast.api.codec.ValueCodec;
import io.steadfast.api.operator.FilterPredicate;
import io.steadfast.api.operator.MapFunction;
import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import io.steadfast.runtime.operator.builtin.BuiltinFunctions;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.voting.VersionRecordList;
import io.steadfast.runtime.topology.ConfigProblem;
import io.steadfast.runtime.topology.OperatorCatalog;
import io.steadfast.api.operator.ConfigException;
import io.steadfast.api.operator.OperatorRole;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * Every operator type, map function, filter predicate and codec a host knows: the built-in ones plus those of
 * {@link OperatorProvider}s on the class path. A name given twice fails construction with both origins named.
 * Immutable and thread-safe.
 */
public final class OperatorRegistry implements OperatorCatalog {

    private final Map<String, OperatorType<?>> types;
    private final ValueCodecRegistry codecs;
    private final ConfigBinder binder = new ConfigBinder();

    private OperatorRegistry(List<OperatorProvider> providers) {
        Map<String, MapFunction> functions = new HashMap<>(BuiltinFunctions.mapFunctions());
        Map<String, FilterPredicate> predicates = new HashMap<>(BuiltinFunctions.filterPredicates());
        List<ValueCodec<?>> userCodecs = new ArrayList<>(List.of(VersionRecordList.CODEC));
        for (OperatorProvider provider : providers) {
            putAllUnique("map function", functions, provider.mapFunctions(), provider);
            putAllUnique("filter predicate", predicates, provider.filterPredicates(), provider);
            userCodecs.addAll(provider.codecs());
        }
        Map<String, OperatorType<?>> all = new TreeMap<>();
        for (OperatorType<?> type : BuiltinOperators.types(Map.copyOf(functions), Map.copyOf(predicates))) {
            all.put(type.name(), type);
        }
        for (OperatorProvider provider : providers) {
            for (OperatorType<?> type : provider.operatorTypes()) {
                if (all.putIfAbsent(type.name(), type) != null) {
                    throw new IllegalStateException("Operator type '" + type.name() + "' of "
                            + provider.getClass().getName() + " is already defined (built in or by another "
                            + "provider); give it another name");
                }
            }
        }
        this.types = Collections.unmodifiableMap(all);
        this.codecs = ValueCodecRegistry.of(userCodecs);
    }

    /** The built-in operators plus every provider found with {@link ServiceLoader}. */
    public static OperatorRegistry load() {
        List<OperatorProvider> providers = new ArrayList<>();
        ServiceLoader.load(OperatorProvider.class).forEach(providers::add);
        return new OperatorRegistry(providers);
    }

    /** The built-in operators plus the given providers (no class-path scanning). */
    public static OperatorRegistry of(List<OperatorProvider> providers) {
        return new OperatorRegistry(List.copyOf(providers));
    }

    private static <T> void putAllUnique(String what, Map<String, T> target, Map<String, T> added,
                                         OperatorProvider provider) {
        added.forEach((name, value) -> {
            if (target.putIfAbsent(name, value) != null) {
                throw new IllegalStateException("The " + what + " '" + name + "' of " + provider.getClass().getName()
                        + " is already defined; give it another name");
            }
        });
    }

    public Optional<OperatorType<?>> type(String name) {
        return Optional.ofNullable(types.get(name));
    }

    /** The type of that name, or an exception that lists the known ones. */
    public OperatorType<?> require(String name) {
        OperatorType<?> type = types.get(name);
        if (type == null) {
            throw new IllegalArgumentException("Operator type '" + name + "' is unknown on this host; known: "
                    + String.join(", ", types.keySet()));
        }
        return type;
    }

    @Override
    public SortedSet<String> typeNames() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(types.keySet()));
    }

    public ValueCodecRegistry codecs() {
        return codecs;
    }

    /**
     * Binds and validates the config of an operator of the given type.
     *
     * @throws io.steadfast.api.operator.ConfigException naming the field at fault
     */
    public Object bindConfig(String typeName, JsonNode config) {
        return binder.bind(require(typeName), config);
    }

    @Override
    public Optional<OperatorRole> roleOf(String type) {
        return type(type).map(OperatorType::role);
    }

    @Override
    public boolean isPlannerOnly(String type) {
        return BuiltinOperators.VOTE.equals(type);
    }

    @Override
    public boolean isKeyed(String type) {
        return type(type).map(OperatorType::keyed).orElse(false);
    }

    @Override
    public List<ConfigProblem> checkConfig(String type, JsonNode config) {
        try {
            bindConfig(type, config);
            return List.of();
        } catch (ConfigException e) {
            return List.of(ConfigProblem.of(e));
        } catch (RuntimeException e) {
            return List.of(new ConfigProblem("", "config of operator type '" + type + "' was rejected: "
                    + e.getMessage()));
        }
    }
}
