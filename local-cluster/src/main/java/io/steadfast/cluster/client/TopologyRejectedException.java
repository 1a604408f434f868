package io.steadfast.cluster.client;

import io.steadfast.protocol.problem.Problem;
import java.util.stream.Collectors;

/** The router refused a topology, typically because it is invalid; the problem detail says why. */
public final class TopologyRejectedException extends RouterRequestException {

    private final Problem problem;

    public TopologyRejectedException(Problem problem) {
        super(describe(problem), problem.status());
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    private static String describe(Problem problem) {
        String errors = problem.errors().stream()
                .map(e -> "  - operator '" + e.operator() + "', field '" + e.field() + "': " + e.message())
                .collect(Collectors.joining("\n"));
        return "The router rejected the topology (HTTP " + problem.status() + "): "
                + (problem.detail() != null ? problem.detail() : problem.title())
                + (errors.isEmpty() ? "" : "\n" + errors);
    }
}
