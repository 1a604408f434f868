package io.steadfast.api.operator;

import io.steadfast.api.annotation.PublicEvolving;
import io.steadfast.api.codec.ValueCodec;
import java.util.List;
import java.util.Map;

/**
 * How a jar contributes operator types, named functions and codecs to the runtime. Implementations are found
 * with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/io.steadfast.api.operator.OperatorProvider}. Names must be unique across all
 * providers; a clash fails host startup with a message naming both providers.
 */
@PublicEvolving
public interface OperatorProvider {

    List<OperatorType<?>> operatorTypes();

    /** Functions the built-in {@code map} operator can apply, by name. */
    default Map<String, MapFunction> mapFunctions() {
        return Map.of();
    }

    /** Predicates the built-in {@code filter} operator can apply, by name. */
    default Map<String, FilterPredicate> filterPredicates() {
        return Map.of();
    }

    /** Codecs for value types of events that travel between hosts, beyond the built-in ones. */
    default List<ValueCodec<?>> codecs() {
        return List.of();
    }
}
