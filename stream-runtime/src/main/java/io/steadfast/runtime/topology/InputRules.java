package io.steadfast.runtime.topology;

import static io.steadfast.runtime.topology.TopologyValidator.path;

import io.steadfast.api.operator.OperatorRole;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The rules about how operators connect: inputs name existing operators, once each, never themselves and
 * never a sink; sources have no inputs and everything else has some; every input of a keyed operator is
 * partitioned by key; there is a source; and the graph has no cycle.
 */
final class InputRules {

    private final TopologySpec spec;
    private final OperatorCatalog catalog;
    private final TopologyLimits limits;
    private final OperatorGraph graph;
    private final String knownOperators;

    InputRules(TopologySpec spec, OperatorCatalog catalog, TopologyLimits limits) {
        this.spec = spec;
        this.catalog = catalog;
        this.limits = limits;
        this.graph = new OperatorGraph(spec);
        this.knownOperators = "known operators: " + spec.operators().stream().map(OperatorSpec::id)
                .filter(Objects::nonNull).collect(Collectors.toCollection(TreeSet::new)).stream()
                .collect(Collectors.joining(", "));
    }

    void check(List<Violation> violations) {
        List<OperatorSpec> operators = spec.operators();
        for (int i = 0; i < operators.size(); i++) {
            checkInputs(i, operators.get(i), violations);
            checkRole(i, operators.get(i), violations);
            checkPartitioning(i, operators.get(i), violations);
        }
        checkHasSource(violations);
        checkCycles(violations);
    }

    private void checkInputs(int index, OperatorSpec operator, List<Violation> violations) {
        List<InputSpec> inputs = operator.inputs();
        if (inputs.size() > limits.maxInputsPerOperator()) {
            violations.add(new Violation(operator.id(), path(index, "inputs"), "inputs has " + inputs.size()
                    + " entries, over the limit of " + limits.maxInputsPerOperator()
                    + " (maxInputsPerOperator); merge upstream operators or raise the limit"));
        }
        Map<String, Integer> seen = new HashMap<>();
        for (int j = 0; j < inputs.size(); j++) {
            String relative = "inputs[" + j + "].from";
            String from = inputs.get(j).from();
            String problem = null;
            if (from == null) {
                problem = relative + " is missing; " + knownOperators;
            } else if (graph.indexOf(from).isEmpty()) {
                problem = relative + " '" + from + "' names no operator; " + knownOperators;
            } else if (from.equals(operator.id())) {
                problem = relative + " '" + from + "' is the operator itself; an operator cannot read its own output";
            } else if (seen.containsKey(from)) {
                problem = relative + " '" + from + "' repeats inputs[" + seen.get(from)
                        + "]; read from each operator once and choose the partitioning there";
            } else if (roleOf(from).filter(OperatorRole.SINK::equals).isPresent()) {
                problem = relative + " '" + from + "' is a sink (type '" + typeOf(from)
                        + "') and emits nothing; read from a source or a processor";
            }
            if (from != null) {
                seen.putIfAbsent(from, j);
            }
            if (problem != null) {
                violations.add(new Violation(operator.id(), path(index, relative), problem));
            }
        }
    }

    private void checkRole(int index, OperatorSpec operator, List<Violation> violations) {
        Optional<OperatorRole> role = operator.contractType() == null ? Optional.empty() : catalog.roleOf(operator.contractType());
        if (role.isEmpty()) {
            return;
        }
        int inputs = operator.inputs().size();
        if (role.get() == OperatorRole.SOURCE && inputs > 0) {
            violations.add(new Violation(operator.id(), path(index, "inputs"), "inputs: a source (type '"
                    + operator.contractType() + "') takes no inputs, found " + inputs
                    + "; remove them or use a processor type"));
        } else if (role.get() != OperatorRole.SOURCE && inputs == 0) {
            violations.add(new Violation(operator.id(), path(index, "inputs"), "inputs is empty; a "
                    + role.get().name().toLowerCase() + " (type '" + operator.contractType()
                    + "') needs at least one input: add {\"from\": \"<operator>\"}"));
        }
    }

    /**
     * A keyed operator keeps a PE instance and its state per key in each subtask: fed by anything but key
     * partitioning, one key would be counted (or summed, or kept) in several subtasks, and every result would be
     * wrong without an error.
     */
    private void checkPartitioning(int index, OperatorSpec operator, List<Violation> violations) {
        if (operator.contractType() == null || !catalog.isKeyed(operator.contractType())) {
            return;
        }
        List<InputSpec> inputs = operator.inputs();
        for (int j = 0; j < inputs.size(); j++) {
            Partitioning partitioning = inputs.get(j).partitioning();
            if (partitioning != Partitioning.KEY) {
                String relative = "inputs[" + j + "].partitioning";
                String from = inputs.get(j).from() == null ? "" : " (from '" + inputs.get(j).from() + "')";
                violations.add(new Violation(operator.id(), path(index, relative), relative + " '" + partitioning
                        + "'" + from + " would spread the events of one key over several subtasks, but type '"
                        + operator.contractType() + "' keeps its state per key, so each subtask would hold part of a key's"
                        + " result; use \"partitioning\": \"key\" (the default when left out)"));
            }
        }
    }

    /** Skipped when some type is unknown: that operator may have been meant as the source. */
    private void checkHasSource(List<Violation> violations) {
        boolean allTypesKnown = spec.operators().stream()
                .allMatch(operator -> operator.contractType() != null && catalog.roleOf(operator.contractType()).isPresent());
        boolean hasSource = spec.operators().stream()
                .anyMatch(operator -> operator.contractType() != null
                        && catalog.roleOf(operator.contractType()).filter(OperatorRole.SOURCE::equals).isPresent());
        if (!spec.operators().isEmpty() && allTypesKnown && !hasSource) {
            String sourceTypes = catalog.typeNames().stream()
                    .filter(type -> catalog.roleOf(type).filter(OperatorRole.SOURCE::equals).isPresent())
                    .collect(Collectors.joining(", "));
            violations.add(new Violation(null, "operators",
                    "operators has no source, so nothing would flow; add an operator of a source type: "
                            + sourceTypes));
        }
    }

    private void checkCycles(List<Violation> violations) {
        for (List<Integer> cycle : CycleFinder.cycles(graph)) {
            int first = cycle.get(0);
            int last = cycle.get(cycle.size() - 1);
            OperatorSpec operator = spec.operators().get(first);
            String closing = spec.operators().get(last).id();
            int input = inputIndex(operator, closing);
            String flow = cycle.stream().map(i -> spec.operators().get(i).id()).collect(Collectors.joining(" -> "))
                    + " -> " + operator.id();
            String relative = "inputs[" + input + "].from";
            violations.add(new Violation(operator.id(), path(first, relative), relative + " '" + closing
                    + "' closes a cycle: " + flow + "; a topology must be acyclic, remove one of these inputs"));
        }
    }

    private static int inputIndex(OperatorSpec operator, String from) {
        for (int j = 0; j < operator.inputs().size(); j++) {
            if (from.equals(operator.inputs().get(j).from())) {
                return j;
            }
        }
        throw new IllegalStateException("operator '" + operator.id() + "' has no input from '" + from + "'");
    }

    private Optional<OperatorRole> roleOf(String operatorId) {
        String type = typeOf(operatorId);
        return type == null ? Optional.empty() : catalog.roleOf(type);
    }

    private String typeOf(String operatorId) {
        OptionalInt index = graph.indexOf(operatorId);
        return index.isEmpty() ? null : spec.operators().get(index.getAsInt()).contractType();
    }
}
