package io.steadfast.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks a {@link TopologySpec} against the {@link OperatorCatalog} and {@link TopologyLimits} and reports
 * every violation at once: ids, types, parallelism, sizes and the checkpoint settings here; inputs, roles,
 * partitioning and cycles in {@link InputRules}; the channels the plan would have in {@link ChannelBudget};
 * operator configs through the catalog. Nothing is expanded: a spec is checked in time linear in its size.
 *
 * <p>Partitioning may join operators of any parallelism (see {@link Partitioning}), but every input of a
 * {@linkplain OperatorCatalog#isKeyed keyed} operator must be partitioned by key.
 *
 * <p>Thread-safe if the catalog is.
 */
public final class TopologyValidator {

    private static final String TOPOLOGY_ID_RULE =
            "use 1-63 lowercase letters, digits or dashes, starting with a letter or digit";
    private static final String OPERATOR_ID_RULE =
            "use 1-63 letters, digits, dashes or underscores, starting with a letter or digit";

    private final OperatorCatalog catalog;
    private final TopologyLimits limits;
    private final TypeAndConfigCheck typeAndConfig;
    private final VersionRules versions;

    public TopologyValidator(OperatorCatalog catalog, TopologyLimits limits) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.typeAndConfig = new TypeAndConfigCheck(catalog);
        this.versions = new VersionRules(catalog, typeAndConfig);
    }

    /** A validator with {@link TopologyLimits#defaults()}. */
    public TopologyValidator(OperatorCatalog catalog) {
        this(catalog, TopologyLimits.defaults());
    }

    /**
     * Validates a spec.
     *
     * @return the same spec, now safe to expand
     * @throws TopologyValidationException listing every violation found
     */
    public TopologySpec validate(TopologySpec spec) {
        List<Violation> violations = violationsOf(spec);
        if (!violations.isEmpty()) {
            throw new TopologyValidationException(spec.id(), violations);
        }
        return spec;
    }

    /** Every violation of a spec, in document order per rule group; empty if the spec is valid. */
    public List<Violation> violationsOf(TopologySpec spec) {
        List<Violation> violations = new ArrayList<>();
        checkTopology(spec, violations);
        Map<String, Integer> firstIndexById = new HashMap<>();
        List<OperatorSpec> operators = spec.operators();
        for (int i = 0; i < operators.size(); i++) {
            checkOperatorId(i, operators.get(i), firstIndexById, violations);
            checkParallelism(i, operators.get(i), violations);
            checkTypeAndConfig(i, operators.get(i), violations);
        }
        new InputRules(spec, catalog, limits).check(violations);
        new ChannelBudget(spec, limits).check(violations);
        checkCheckpointing(spec.checkpointing(), violations);
        if (!spec.recovery().isValid()) {
            violations.add(new Violation(null, "recovery.mode", "recovery.mode '" + spec.recovery().mode()
                    + "' is not a recovery mode; give one of " + RecoverySpec.MODES
                    + ", or leave it out for LOCAL (only lost tasks roll back)"));
        }
        return violations;
    }

    private static void checkCheckpointing(CheckpointingSpec checkpointing, List<Violation> violations) {
        requirePositive("intervalMs", checkpointing.intervalMs(), "milliseconds between checkpoints",
                violations);
        requirePositive("timeoutMs", checkpointing.timeoutMs(), "milliseconds a checkpoint may take",
                violations);
        requirePositive("maxConcurrent", checkpointing.maxConcurrent() == null ? null
                : checkpointing.maxConcurrent().longValue(), "checkpoints pending at once", violations);
    }

    private static void requirePositive(String name, Long value, String unit, List<Violation> violations) {
        if (value != null && value < 1) {
            String field = "checkpointing." + name;
            violations.add(new Violation(null, field, field + " " + value + " is not positive; give the " + unit
                    + " (at least 1), or leave it out to use the router's default"));
        }
    }

    private void checkTopology(TopologySpec spec, List<Violation> violations) {
        if (spec.id() == null) {
            violations.add(new Violation(null, "id", "id is missing; " + TOPOLOGY_ID_RULE));
        } else if (!TopologyId.isValid(spec.id())) {
            violations.add(new Violation(null, "id", "id '" + spec.id() + "' is invalid; " + TOPOLOGY_ID_RULE));
        }
        int count = spec.operators().size();
        if (count == 0) {
            violations.add(new Violation(null, "operators",
                    "operators is empty; declare at least one source operator and what consumes it"));
        } else if (count > limits.maxOperators()) {
            violations.add(new Violation(null, "operators", "operators has " + count + " entries, over the limit of "
                    + limits.maxOperators() + " (maxOperators); split the topology or raise the limit"));
        }
        long totalTasks = spec.operators().stream().mapToLong(OperatorSpec::taskCount).sum();
        if (totalTasks > limits.maxTotalTasks()) {
            violations.add(new Violation(null, "operators", "operators have " + totalTasks
                    + " tasks in total (the sum of their parallelism, an N-version operator's once per version and"
                    + " once for its votes), over the limit of " + limits.maxTotalTasks()
                    + " (maxTotalTasks); lower the parallelism or raise the limit"));
        }
    }

    private static void checkOperatorId(int index, OperatorSpec operator, Map<String, Integer> firstIndexById,
                                        List<Violation> violations) {
        String field = path(index, "id");
        if (operator.id() == null) {
            violations.add(new Violation(null, field, "id is missing; " + OPERATOR_ID_RULE));
            return;
        }
        if (!OperatorId.isWritable(operator.id())) {
            violations.add(new Violation(operator.id(), field,
                    "id '" + operator.id() + "' is invalid; " + OPERATOR_ID_RULE));
        }
        Integer first = firstIndexById.putIfAbsent(operator.id(), index);
        if (first != null) {
            violations.add(new Violation(operator.id(), field, "id '" + operator.id()
                    + "' is already used by operators[" + first + "]; give every operator its own id"));
        }
    }

    private void checkParallelism(int index, OperatorSpec operator, List<Violation> violations) {
        int parallelism = operator.parallelism();
        if (parallelism < 1 || parallelism > limits.maxParallelism()) {
            violations.add(new Violation(operator.id(), path(index, "parallelism"), "parallelism " + parallelism
                    + " is out of range; use 1.." + limits.maxParallelism() + " (maxParallelism)"));
        }
    }

    private void checkTypeAndConfig(int index, OperatorSpec operator, List<Violation> violations) {
        if (operator.isNVersion()) {
            versions.check(index, operator, violations);
            return;
        }
        if (operator.voting() != null) {
            violations.add(new Violation(operator.id(), path(index, "voting"), "voting applies to an operator with"
                    + " versions; give \"versions\": [{\"type\": ...}, ...] or remove voting"));
        }
        typeAndConfig.check(index, operator.id(), "", operator.type(), operator.config(), violations);
    }

    static String path(int index, String relative) {
        return "operators[" + index + "]" + (relative.isEmpty() ? "" : "." + relative);
    }
}
