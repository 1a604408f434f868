package io.steadfast.api;

import io.steadfast.api.annotation.PublicEvolving;

/** Identifies the task a PE or source runs in. */
@PublicEvolving
public record OperatorInfo(String topologyId, String operatorId, int subtask, int parallelism) {

    public OperatorInfo {
        if (parallelism < 1 || subtask < 0 || subtask >= parallelism) {
            throw new IllegalArgumentException("subtask " + subtask + " is outside parallelism " + parallelism);
        }
    }
}
