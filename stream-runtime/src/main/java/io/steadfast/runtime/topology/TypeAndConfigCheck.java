package io.steadfast.runtime.topology;

import io.steadfast.api.operator.OperatorRole;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Checks an operator type and its config against the catalog, for an operator or one of its versions: the type is
 * named and known, the config is an object the type accepts. Thread-safe if the catalog is.
 */
final class TypeAndConfigCheck {

    private final OperatorCatalog catalog;

    TypeAndConfigCheck(OperatorCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * @param index    the operator's position in {@code operators}
     * @param prefix   where the type and config sit within the operator: empty, or {@code versions[j].}
     * @return the type's role, empty if the type is missing or unknown
     */
    Optional<OperatorRole> check(int index, String operatorId, String prefix, String type, JsonNode config,
                                 List<Violation> violations) {
        String knownTypes = "known types: " + String.join(", ", catalog.typeNames().stream()
                .filter(name -> !catalog.isPlannerOnly(name)).toList());
        if (type == null) {
            violations.add(new Violation(operatorId, TopologyValidator.path(index, prefix + "type"),
                    prefix + "type is missing; " + knownTypes));
            return Optional.empty();
        }
        if (catalog.isPlannerOnly(type)) {
            violations.add(new Violation(operatorId, TopologyValidator.path(index, prefix + "type"),
                    prefix + "type '" + type + "' is added by the planner and cannot be named in a spec; to vote on"
                    + " several versions of an operator, give it \"versions\" and \"voting\""));
            return Optional.empty();
        }
        Optional<OperatorRole> role = catalog.roleOf(type);
        if (role.isEmpty()) {
            violations.add(new Violation(operatorId, TopologyValidator.path(index, prefix + "type"),
                    prefix + "type '" + type + "' is unknown; " + knownTypes));
        }
        if (!config.isObject()) {
            violations.add(new Violation(operatorId, TopologyValidator.path(index, prefix + "config"), prefix
                    + "config must be a JSON object, found " + config.getNodeType().name().toLowerCase(Locale.ROOT)
                    + " " + abbreviate(config.toString()) + "; write the settings as {\"name\": value}"));
        } else if (role.isPresent()) {
            for (ConfigProblem problem : catalog.checkConfig(type, config)) {
                String relative = prefix + (problem.field().isEmpty() ? "config" : "config." + problem.field());
                violations.add(new Violation(operatorId, TopologyValidator.path(index, relative),
                        relative + ": " + problem.message()));
            }
        }
        return role;
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}
