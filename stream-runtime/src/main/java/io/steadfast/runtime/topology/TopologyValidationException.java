package io.steadfast.runtime.topology;

import java.util.List;

/**
 * A topology spec cannot be accepted: it could not be read, or it breaks one or more rules. Carries every
 * violation found, not only the first; the message lists each on its own line.
 */
public class TopologyValidationException extends RuntimeException {

    private final String topology;
    private final List<Violation> violations;

    /**
     * @param topology the topology id as written, {@code null} if unknown
     * @param violations at least one
     */
    public TopologyValidationException(String topology, List<Violation> violations) {
        super(format(topology, violations));
        if (violations.isEmpty()) {
            throw new IllegalArgumentException("a validation exception needs at least one violation");
        }
        this.topology = topology;
        this.violations = List.copyOf(violations);
    }

    /** The topology id as written in the spec, {@code null} if it was absent or the spec could not be read. */
    public String topology() {
        return topology;
    }

    public List<Violation> violations() {
        return violations;
    }

    private static String format(String topology, List<Violation> violations) {
        StringBuilder text = new StringBuilder(topology == null ? "Topology" : "Topology '" + topology + "'")
                .append(" is invalid:");
        for (Violation violation : violations) {
            text.append("\n - ").append(violation.describe());
        }
        return text.toString();
    }
}
