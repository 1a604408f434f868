package io.steadfast.runtime.topology;

import io.steadfast.api.operator.OperatorRole;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import tools.jackson.databind.JsonNode;

/**
 * The operator types a topology may use, as {@link TopologyValidator} needs to know them. The runtime
 * implements it over its registered {@link io.steadfast.api.operator.OperatorType}s.
 *
 * <p>Implementations must be safe to call from several threads (validation happens on request threads) and
 * must not throw for an unknown type or a malformed config: they answer with empty results and problems.
 */
public interface OperatorCatalog {

    /** The names of every known type, sorted; used to tell a user what they could have written. */
    SortedSet<String> typeNames();

    /** The role of a type, or empty if the type is unknown. */
    Optional<OperatorRole> roleOf(String type);

    /**
     * Whether operators of a type keep a processing element, and its state, per key, so that all events of one key
     * must reach the same subtask ({@link io.steadfast.api.operator.OperatorType#keyed()}); false for an unknown type.
     */
    boolean isKeyed(String type);

    /**
     * Binds and checks an operator's JSON config for a known type (unknown fields rejected, the type's
     * validator applied).
     *
     * @param type a type for which {@link #roleOf} is present
     * @param config the operator's config, always a JSON object
     * @return the problems as (field, message) pairs, empty if the config is fine
     */
    List<ConfigProblem> checkConfig(String type, JsonNode config);

    /** Whether only the planner places operators of this type (a spec may not name it). */
    default boolean isPlannerOnly(String type) {
        return false;
    }
}
