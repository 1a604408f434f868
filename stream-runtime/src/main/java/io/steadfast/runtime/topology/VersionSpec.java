package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * One version of an N-version operator as written in its {@code "versions"}: an operator type of its own with its
 * own config, under the operator's input and output contract. Kept raw, like {@link OperatorSpec}, so that
 * {@link VersionRules} reports every problem at once.
 *
 * @param type   the version's operator type; {@code null} when absent
 * @param config its config, bound by its type; an empty object when absent or null
 */
public record VersionSpec(String type, JsonNode config) {

    public VersionSpec {
        config = config == null || config.isNull() || config.isMissingNode() ? JsonNodeFactory.instance.objectNode()
                : config.deepCopy();
    }

    @JsonCreator
    static VersionSpec fromJson(@JsonProperty("type") String type, @JsonProperty("config") JsonNode config) {
        return new VersionSpec(type, config);
    }

    /** The config, a defensive copy: {@link JsonNode} trees are mutable. */
    @Override
    public JsonNode config() {
        return config.deepCopy();
    }
}
