package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A topology as submitted: an id, its operators in declaration order, and its own checkpoint settings. Read it
 * with {@link TopologySpecReader}, check it with {@link TopologyValidator}; only a validated spec should be
 * expanded into an execution plan.
 *
 * @param id the topology id as written; {@code null} when absent
 * @param operators the operators in declaration order; empty when absent
 * @param checkpointing the {@code "checkpointing"} section; {@link CheckpointingSpec#DEFAULTS} when absent or null
 * @param recovery the {@code "recovery"} section; {@link RecoverySpec#DEFAULTS} (local recovery) when absent or null
 */
public record TopologySpec(String id, List<OperatorSpec> operators, CheckpointingSpec checkpointing,
                           RecoverySpec recovery) {

    public TopologySpec {
        operators = OperatorSpec.copyWithoutNulls(operators, "operators");
        checkpointing = checkpointing == null ? CheckpointingSpec.DEFAULTS : checkpointing;
        recovery = recovery == null ? RecoverySpec.DEFAULTS : recovery;
    }

    /** A spec without a {@code "checkpointing"} or {@code "recovery"} section. */
    public TopologySpec(String id, List<OperatorSpec> operators) {
        this(id, operators, CheckpointingSpec.DEFAULTS, RecoverySpec.DEFAULTS);
    }

    /** A spec without a {@code "recovery"} section. */
    public TopologySpec(String id, List<OperatorSpec> operators, CheckpointingSpec checkpointing) {
        this(id, operators, checkpointing, RecoverySpec.DEFAULTS);
    }

    @JsonCreator
    static TopologySpec fromJson(@JsonProperty("id") String id,
                                 @JsonProperty("operators") List<OperatorSpec> operators,
                                 @JsonProperty("checkpointing") CheckpointingSpec checkpointing,
                                 @JsonProperty("recovery") RecoverySpec recovery) {
        return new TopologySpec(id, operators, checkpointing, recovery);
    }

    /**
     * The topology id as a typed id; use after validation.
     *
     * @throws IllegalArgumentException if {@code id} is not a valid topology id
     */
    @JsonIgnore
    public TopologyId topologyId() {
        return new TopologyId(id);
    }
}
