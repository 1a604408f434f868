package io.steadfast.runtime.voting;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether two versions' values agree. Numbers agree when they are within the tolerance of each other (inclusive):
 * {@code 0.0} and {@code -0.0} agree, {@code 1L} and {@code 1.0} agree, NaN agrees only with NaN and an infinity only
 * with the same infinity. Integral numbers are compared exactly when the tolerance is 0, so that longs above 2^53 stay
 * apart. Lists agree element by element, maps key by key (the same keys); anything else by {@code equals}.
 */
final class ValueAgreement {

    private ValueAgreement() {
    }

    /** Whether two ballots hold agreeing values, in the same order. */
    static boolean agree(Ballot a, Ballot b, double tolerance) {
        return listsAgree(a.values(), b.values(), tolerance);
    }

    static boolean agree(Object a, Object b, double tolerance) {
        if (a instanceof Number x && b instanceof Number y) {
            return numbersAgree(x, y, tolerance);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            return listsAgree(x, y, tolerance);
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            return mapsAgree(x, y, tolerance);
        }
        return Objects.equals(a, b);
    }

    private static boolean numbersAgree(Number a, Number b, double tolerance) {
        if (tolerance == 0 && integral(a) && integral(b)) {
            return a.longValue() == b.longValue();
        }
        double x = a.doubleValue();
        double y = b.doubleValue();
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return Double.isNaN(x) && Double.isNaN(y);
        }
        if (Double.isInfinite(x) || Double.isInfinite(y)) {
            return x == y;
        }
        return Math.abs(x - y) <= tolerance;
    }

    private static boolean integral(Number n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
    }

    private static boolean listsAgree(List<?> a, List<?> b, double tolerance) {
        if (a.size() != b.size()) {
            return false;
        }
        Iterator<?> x = a.iterator();
        Iterator<?> y = b.iterator();
        while (x.hasNext()) {
            if (!agree(x.next(), y.next(), tolerance)) {
                return false;
            }
        }
        return true;
    }

    private static boolean mapsAgree(Map<?, ?> a, Map<?, ?> b, double tolerance) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<?, ?> entry : a.entrySet()) {
            if (!agree(entry.getValue(), b.get(entry.getKey()), tolerance)) {
                return false;
            }
        }
        return true;
    }
}
