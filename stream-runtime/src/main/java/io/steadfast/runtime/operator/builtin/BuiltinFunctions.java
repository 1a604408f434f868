package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.operator.FilterPredicate;
import io.steadfast.api.operator.MapFunction;
import java.util.Locale;
import java.util.Map;

/** The map functions and filter predicates every host knows. */
public final class BuiltinFunctions {

    private BuiltinFunctions() {
    }

    public static Map<String, MapFunction> mapFunctions() {
        return Map.of(
                "identity", (key, value) -> value,
                "uppercase", (key, value) -> value == null ? null : value.toString().toUpperCase(Locale.ROOT),
                "lowercase", (key, value) -> value == null ? null : value.toString().toLowerCase(Locale.ROOT),
                "to-string", (key, value) -> String.valueOf(value),
                "length", (key, value) -> value == null ? 0L : (long) value.toString().length(),
                "double", (key, value) -> scale(value, 2),
                "negate", (key, value) -> scale(value, -1),
                "square", (key, value) -> value instanceof Number n ? multiply(n, n) : value);
    }

    public static Map<String, FilterPredicate> filterPredicates() {
        return Map.of(
                "all", (key, value) -> true,
                "none", (key, value) -> false,
                "non-null", (key, value) -> value != null,
                "even", (key, value) -> value instanceof Number n && n.longValue() % 2 == 0,
                "odd", (key, value) -> value instanceof Number n && n.longValue() % 2 != 0,
                "positive", (key, value) -> value instanceof Number n && n.doubleValue() > 0);
    }

    private static Object scale(Object value, long factor) {
        return value instanceof Number n ? multiply(n, factor) : value;
    }

    private static Object multiply(Number a, Number b) {
        if ((a instanceof Long || a instanceof Integer) && (b instanceof Long || b instanceof Integer)) {
            return a.longValue() * b.longValue();
        }
        return a.doubleValue() * b.doubleValue();
    }
}
