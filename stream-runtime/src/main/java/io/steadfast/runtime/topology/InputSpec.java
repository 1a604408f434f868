package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * One declared input of an operator: which operator it reads from and how that operator's events are
 * partitioned over this operator's subtasks.
 *
 * @param from the upstream operator id as written in the JSON; {@code null} when absent (a validation error)
 * @param partitioning how events are spread; {@link Partitioning#KEY} when absent
 */
public record InputSpec(String from, Partitioning partitioning) {

    public InputSpec {
        Objects.requireNonNull(partitioning, "partitioning");
    }

    /** Binds the JSON form, applying the default partitioning. */
    @JsonCreator
    static InputSpec fromJson(@JsonProperty("from") String from,
                              @JsonProperty("partitioning") Partitioning partitioning) {
        return new InputSpec(from, partitioning == null ? Partitioning.KEY : partitioning);
    }

    /** An input partitioned by key. */
    public static InputSpec byKey(String from) {
        return new InputSpec(from, Partitioning.KEY);
    }

    /**
     * The upstream operator as a typed id; use after validation.
     *
     * @throws IllegalArgumentException if {@code from} is not a valid operator id
     */
    @JsonIgnore
    public OperatorId fromId() {
        return new OperatorId(from);
    }
}
