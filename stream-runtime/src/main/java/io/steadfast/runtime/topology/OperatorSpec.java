package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * One operator of a topology as written in its JSON. Strings are kept raw so that a bad id or type is reported
 * by {@link TopologyValidator} with the other problems rather than failing the parse.
 *
 * @param id the operator id; {@code null} when absent
 * @param type the operator type name; {@code null} when absent
 * @param parallelism the number of subtasks; 1 when absent
 * @param inputs the declared inputs, in order (their position is the input index); empty when absent
 * @param config the operator's config, bound by its type; an empty object when absent or null
 * @param versions the versions of an N-version operator, which then has no type or config of its own; empty for an
 *                 operator of one version
 * @param voting how the versions are voted on; null when absent (the defaults, for an N-version operator)
 */
public record OperatorSpec(String id, String type, int parallelism, List<InputSpec> inputs, JsonNode config,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<VersionSpec> versions,
                           @JsonInclude(JsonInclude.Include.NON_NULL) VotingSpec voting) {

    public OperatorSpec {
        inputs = copyWithoutNulls(inputs, "inputs");
        config = config == null || config.isNull() || config.isMissingNode() ? JsonNodeFactory.instance.objectNode() : config.deepCopy();
        versions = copyWithoutNulls(versions, "versions");
    }

    /** An operator of one version. */
    public OperatorSpec(String id, String type, int parallelism, List<InputSpec> inputs, JsonNode config) {
        this(id, type, parallelism, inputs, config, List.of(), null);
    }

    /** Binds the JSON form, applying the defaults for absent fields. */
    @JsonCreator
    static OperatorSpec fromJson(@JsonProperty("id") String id,
                                 @JsonProperty("type") String type,
                                 @JsonProperty("parallelism") Integer parallelism,
                                 @JsonProperty("inputs") List<InputSpec> inputs,
                                 @JsonProperty("config") JsonNode config,
                                 @JsonProperty("versions") List<VersionSpec> versions,
                                 @JsonProperty("voting") VotingSpec voting) {
        return new OperatorSpec(id, type, parallelism == null ? 1 : parallelism, inputs, config, versions, voting);
    }

    /** Whether this operator runs several versions whose outputs are voted on. */
    @JsonIgnore
    public boolean isNVersion() {
        return !versions.isEmpty();
    }

    /**
     * The type whose role, keying and input contract this operator has: its own, or its first version's (the rules
     * require every version to share them); null when it has neither.
     */
    @JsonIgnore
    public String contractType() {
        return versions.isEmpty() ? type : versions.get(0).type();
    }

    /** How many tasks the operator runs: its parallelism, times its versions plus one vote task per subtask. */
    @JsonIgnore
    public long taskCount() {
        long parallel = Math.max(0, parallelism);
        return versions.isEmpty() ? parallel : parallel * (versions.size() + 1);
    }

    /**
     * The operator id as a typed id; use after validation.
     *
     * @throws IllegalArgumentException if {@code id} is not a valid operator id
     */
    @JsonIgnore
    public OperatorId operatorId() {
        return new OperatorId(id);
    }

    /** The config, a defensive copy: {@link JsonNode} trees are mutable. */
    @Override
    public JsonNode config() {
        return config.deepCopy();
    }

    static <T> List<T> copyWithoutNulls(List<T> list, String name) {
        if (list == null) {
            return List.of();
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == null) {
                throw new IllegalArgumentException(name + "[" + i + "] is null; remove it or give an object");
            }
        }
        return List.copyOf(list);
    }
}
